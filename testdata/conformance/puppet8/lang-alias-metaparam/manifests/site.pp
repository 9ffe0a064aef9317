file { '/etc/very/long/path/app.conf': ensure => file, alias => 'appconf' }
service { 'app': ensure => running, subscribe => File['appconf'] }
