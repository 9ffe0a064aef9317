package { 'ntp': ensure => installed }
-> file { '/etc/ntp.conf': ensure => file }
~> service { 'ntp': ensure => running }
notify { 'last': } <- Service['ntp']
exec { 'reload': command => '/bin/true', refreshonly => true } <~ File['/etc/ntp.conf']
