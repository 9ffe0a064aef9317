notify { 'call 1: flat': message => php_ini({ 'memory_limit' => '128M', 'opcache' => { 'enable' => '1', 'max' => '0.5' } }) }
notify { 'call 2: merge and array': message => php_ini({ 'a' => 'x' }, { 'a' => 'y', 'ext' => ['gd', 'intl'] }) }
