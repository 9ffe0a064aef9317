class { 'zabbix::agent':
  server => '192.168.20.11',
}
