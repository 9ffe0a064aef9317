cron { 'backup':
  command  => '/usr/local/bin/backup --quiet',
  user     => 'backup',
  hour     => '1',
  minute   => '15',
  weekday  => ['1-5'],
  target   => 'backup',
}
cron { 'monthly report':
  command  => '/usr/local/bin/report',
  monthday => 1,
  hour     => 6,
  minute   => 0,
}
