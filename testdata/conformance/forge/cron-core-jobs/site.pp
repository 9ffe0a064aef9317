cron { 'logrotate-extra':
  command     => '/usr/sbin/logrotate /etc/logrotate-extra.conf',
  user        => 'root',
  hour        => 2,
  minute      => [0, 30],
  environment => ['PATH=/usr/bin:/bin', 'MAILTO=ops@example.com'],
}
cron { 'purge old':
  ensure  => absent,
  command => '/usr/local/bin/purge',
  special => 'daily',
}
