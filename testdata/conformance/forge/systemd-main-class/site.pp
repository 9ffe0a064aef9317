class { 'systemd':
  manage_journald   => true,
  journald_settings => {
    'Storage'    => 'persistent',
    'SystemMaxUse' => '500M',
  },
  manage_logind     => true,
  logind_settings   => {
    'HandleLidSwitch' => 'ignore',
  },
  manage_timesyncd  => true,
  ntp_server        => ['0.pool.ntp.org', '1.pool.ntp.org'],
}
