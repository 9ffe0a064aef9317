file { '/tmp/x':
  ensure => present
  mode   => '0644',
}
