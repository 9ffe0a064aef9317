selmodule { 'selmodule_policy':
  ensure       => present,
  selmoduledir => '/usr/share/selinux/targeted',
}

selboolean { 'collectd_tcp_network_connect':
  persistent => true,
  value      => on,
}
