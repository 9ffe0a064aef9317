file { 'config-a': path => '/etc/same.conf', ensure => file }
file { 'config-b': path => '/etc/same.conf', ensure => file }
