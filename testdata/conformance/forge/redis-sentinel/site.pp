include redis

class { 'redis::sentinel':
  master_name => 'mymaster',
  redis_host  => '192.168.1.5',
  failover_timeout => 30000,
}
