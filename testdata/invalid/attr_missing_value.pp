file { '/tmp/x':
  ensure => ,
}
