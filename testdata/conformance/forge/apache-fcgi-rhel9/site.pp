class { 'apache':
  mpm_module    => 'event',
  default_vhost => false,
}
include apache::mod::proxy_fcgi
apache::vhost { 'php.example.com':
  port        => 80,
  docroot     => '/var/www/php',
  directories => [
    { 'path' => '/var/www/php', 'options' => ['Indexes', 'FollowSymLinks'], 'allow_override' => ['All'] },
  ],
}
