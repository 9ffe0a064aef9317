file { ['/srv/a', '/srv/b']:
  ensure => directory,
  mode   => '0755',
}
