file { '/tmp/modes':
  ensure => file,
  mode   => '0644',
  backup => false,
}
user { 'app':
  uid => 0x1F4,
  gid => 500,
}
