notify { 'call 1: rows': message => puppetdb::munge_facts([{ 'certname' => 'a', 'name' => 'os', 'value' => { 'family' => 'Debian' } }, { 'certname' => 'b', 'name' => 'x', 'value' => 1 }, { 'certname' => 'a', 'name' => 'y', 'value' => [1] }]) }
notify { 'call 2: empty': message => puppetdb::munge_facts([]) }
