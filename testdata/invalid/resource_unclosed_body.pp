file { '/tmp/x':
  ensure => present,
