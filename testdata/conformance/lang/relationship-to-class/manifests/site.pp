class database { package { 'postgresql': } }
include database
service { 'app': ensure => running, require => Class['database'] }
notify { 'done': } -> Class['database']
