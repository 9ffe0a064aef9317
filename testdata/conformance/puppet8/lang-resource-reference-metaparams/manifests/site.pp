package { 'nginx': ensure => installed, before => File['/etc/nginx.conf'] }
file { '/etc/nginx.conf': ensure => file, notify => Service['nginx'] }
service { 'nginx': ensure => running, require => [Package['nginx'], File['/etc/nginx.conf']] }
exec { 'reload-check': command => '/bin/true', refreshonly => true, subscribe => Service['nginx'] }
