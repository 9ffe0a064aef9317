notify { 'call 1: sections with defaults': message => [create_ini_settings({ 'main' => { 'a' => 'b', 'c' => { 'ensure' => 'absent' } } }, { 'path' => '/tmp/dep.ini' })] }
notify { 'call 2: empty': message => [create_ini_settings({})] }
