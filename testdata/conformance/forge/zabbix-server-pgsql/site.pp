node 'web01.example.com' {
  class { 'apache':
    mpm_module => 'prefork',
  }

  class { 'zabbix':
    zabbix_url    => 'zabbix.example.com',
  }
}
