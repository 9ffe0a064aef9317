host { 'db01.example.com':
  ip           => '10.0.0.31',
  host_aliases => ['db01', 'mysql'],
  comment      => 'primary database',
}
host { 'old.example.com':
  ensure => absent,
}
