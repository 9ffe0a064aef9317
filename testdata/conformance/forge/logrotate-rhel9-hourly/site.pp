class { 'logrotate':
  config => {
    dateext      => true,
    compress     => true,
    rotate       => 10,
    rotate_every => 'week',
    ifempty      => true,
  },
}
logrotate::rule { 'app-hourly':
  path         => '/var/log/app/*.log',
  rotate_every => 'hour',
  rotate       => 48,
  create       => true,
  create_mode  => '0640',
  create_owner => 'app',
  create_group => 'app',
}
