shellvar { 'HOSTNAME':
  ensure => present,
  target => '/etc/sysconfig/network',
  value  => 'web01.example.com',
}
shellvar { 'selinux mode':
  variable => 'SELINUX',
  target   => '/etc/selinux/config',
  value    => 'permissive',
  comment  => 'set by puppet',
}
