class base {
  file { '/etc/base.conf': ensure => file, mode => '0600', owner => 'root' }
  service { 'svc': ensure => running, require => Package['a'] }
  package { ['a', 'b']: }
}
class base::override inherits base {
  File['/etc/base.conf'] { mode => '0644', owner => undef }
  Service['svc'] { require +> Package['b'] }
}
include base::override
