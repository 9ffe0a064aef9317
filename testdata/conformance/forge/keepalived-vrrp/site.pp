include keepalived
keepalived::vrrp::script { 'check_nginx':
  script => '/usr/bin/killall -0 nginx',
}
keepalived::vrrp::instance { 'VI_50':
  interface         => 'eth1',
  state             => 'MASTER',
  virtual_router_id => 50,
  priority          => 101,
  auth_type         => 'PASS',
  auth_pass         => 'secret',
  virtual_ipaddress => ['10.0.0.200/29'],
  track_script      => ['check_nginx'],
}
