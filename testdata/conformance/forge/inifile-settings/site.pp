ini_setting { 'php memory_limit':
  ensure  => present,
  path    => '/tmp/forge-a/php.ini',
  section => 'PHP',
  setting => 'memory_limit',
  value   => '256M',
}
ini_subsetting { 'java opts Xmx':
  ensure     => present,
  path       => '/tmp/forge-a/defaults',
  section    => '',
  setting    => 'JAVA_OPTS',
  subsetting => '-Xmx',
  value      => '512m',
}
inifile::create_ini_settings({
  'section1' => { 'a' => 'one', 'b' => 'two' },
  'section2' => { 'c' => { 'ensure' => 'absent' } },
}, { 'path' => '/tmp/forge-a/generated.ini' })
