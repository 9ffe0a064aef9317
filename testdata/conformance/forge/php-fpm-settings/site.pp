class { 'php':
  ensure       => present,
  manage_repos => false,
  fpm          => true,
  dev          => true,
  composer     => true,
  pear         => true,
  phpunit      => false,
  settings     => {
    'PHP/max_execution_time'  => '90',
    'PHP/memory_limit'        => '64M',
    'Date/date.timezone'      => 'Europe/Berlin',
  },
}
