class { 'apache':
  default_vhost => false,
  mpm_module    => 'event',
}
apache::vhost { 'app.example.com':
  port                => 80,
  docroot             => '/var/www/app',
  proxy_preserve_host => true,
  proxy_pass          => [
    { 'path' => '/api', 'url' => 'http://127.0.0.1:8080/api' },
    { 'path' => '/', 'url' => 'http://127.0.0.1:3000/' },
  ],
  directories         => [
    { 'path' => '/var/www/app', 'provider' => 'directory', 'allow_override' => ['None'], 'require' => 'all granted' },
  ],
}
