notify { 'call 1: nested': message => mysql::strip_hash({ 'mysqld' => { 'a' => '', 'b' => 'x' }, 'empty' => '', 'client' => { 'port' => 3306 } }) }
notify { 'call 2: nothing to strip': message => mysql::strip_hash({ 'a' => 1, 'b' => [''] }) }
notify { 'call 3: empty': message => mysql::strip_hash({}) }
notify { 'call 4: undef values kept': message => mysql::strip_hash({ 'a' => undef, 'b' => '' }) }
