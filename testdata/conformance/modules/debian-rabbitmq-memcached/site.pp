class { 'rabbitmq': }
rabbitmq_vhost { 'app': ensure => present }
class { 'memcached': max_memory => '64' }
