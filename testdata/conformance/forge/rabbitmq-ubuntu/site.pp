class { 'rabbitmq':
  environment_variables => {
    'NODENAME' => 'node01',
  },
}

rabbitmq_vhost { '/app': }

rabbitmq_policy { 'ha-all@/app':
  pattern    => '.*',
  priority   => 0,
  applyto    => 'queues',
  definition => {
    'ha-mode'      => 'all',
    'ha-sync-mode' => 'automatic',
  },
}
