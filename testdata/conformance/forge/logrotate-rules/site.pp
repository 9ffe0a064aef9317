include logrotate
logrotate::rule { 'messages':
  path         => '/var/log/messages',
  rotate       => 5,
  rotate_every => 'week',
  postrotate   => '/usr/bin/killall -HUP syslogd',
}
logrotate::rule { 'apache':
  path          => '/var/log/apache2/*.log',
  rotate        => 14,
  mail          => 'test@example.com',
  size          => '100k',
  sharedscripts => true,
  compress      => true,
  missingok     => true,
}
