class { 'rabbitmq':
  port              => 5672,
  delete_guest_user => true,
  config_variables  => {
    'hipe_compile' => true,
    'frame_max'    => 131072,
  },
}

rabbitmq_vhost { 'myvhost':
  ensure => present,
}

rabbitmq_user { 'dan':
  admin    => true,
  password => 'bar',
  tags     => ['monitoring', 'tag1'],
}

rabbitmq_user_permissions { 'dan@myvhost':
  configure_permission => '.*',
  read_permission      => '.*',
  write_permission     => '.*',
}
