class { 'apache':
  default_vhost => false,
}
apache::vhost { 'first.example.com':
  port    => 80,
  docroot => '/var/www/first',
}
apache::vhost { 'second.example.com':
  port          => 80,
  docroot       => '/var/www/second',
  serveraliases => ['www.second.example.com'],
  docroot_owner => 'www-data',
  docroot_group => 'www-data',
}
