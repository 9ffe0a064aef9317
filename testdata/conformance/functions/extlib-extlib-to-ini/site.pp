$data = { 'main' => { 'logfile' => '/var/log/app.log', 'debug' => true, 'workers' => 4 }, 'db' => { 'host' => 'db.example.com', 'name' => 'ü' } }
notify { 'call 1: defaults': message => extlib::to_ini($data) }
notify { 'call 2: unquoted booleans and numbers, custom separator': message => extlib::to_ini($data, { 'quote_booleans' => false, 'quote_numerics' => false, 'key_val_separator' => ' = ', 'quote_char' => '' }) }
notify { 'call 3: empty data, custom header': message => extlib::to_ini({}, { 'header' => '; generated' }) }
notify { 'call 4: empty section': message => extlib::to_ini({ 'empty' => {} }) }
