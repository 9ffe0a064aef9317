class { 'corosync':
  authkey        => '/etc/puppetlabs/puppet/ssl/certs/ca.pem',
  bind_address   => $facts['networking']['ip'],
  cluster_name   => 'mycluster',
  enable_secauth => true,
}
corosync::service { 'pacemaker':
  version => '0',
}
cs_primitive { 'nginx_vip':
  primitive_class => 'ocf',
  primitive_type  => 'IPaddr2',
  provided_by     => 'heartbeat',
  parameters      => { 'ip' => '172.16.210.100', 'cidr_netmask' => '24' },
  operations      => { 'monitor' => { 'interval' => '10s' } },
}
cs_primitive { 'nginx_service':
  primitive_class => 'ocf',
  primitive_type  => 'nginx_fixed',
  provided_by     => 'pacemaker',
  operations      => {
    'monitor' => { 'interval' => '10s', 'timeout' => '30s' },
    'start'   => { 'interval' => '0', 'timeout' => '30s', 'on-fail' => 'restart' },
  },
  require         => Cs_primitive['nginx_vip'],
}
cs_colocation { 'vip_with_service':
  primitives => ['nginx_vip', 'nginx_service'],
}
