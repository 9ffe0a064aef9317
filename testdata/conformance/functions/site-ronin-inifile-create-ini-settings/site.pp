$defaults = { 'path' => '/tmp/foo.ini' }
$example = {
  'section1' => { 'setting1' => 'value1', 'settings2' => { 'ensure' => 'absent' } },
  'section2' => { 'setting3' => { 'value' => 'value3' } },
}
notify { 'call 1: README example': message => [inifile::create_ini_settings($example, $defaults)] }
notify { 'call 2: extra defaults, unicode value': message => [inifile::create_ini_settings({ 'main' => { 'x' => 1, 'y' => 'ü' } }, { 'path' => '/tmp/bar.ini', 'key_val_separator' => ' = ' })] }
notify { 'call 3: empty settings': message => [inifile::create_ini_settings({}, $defaults)] }
