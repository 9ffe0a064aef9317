include nginx

nginx::resource::server { 'www.example.com':
  www_root    => '/var/www/www.example.com',
  ssl         => true,
  ssl_cert    => '/etc/ssl/certs/www.example.com.pem',
  ssl_key     => '/etc/ssl/private/www.example.com.key',
  ssl_redirect => true,
}

nginx::resource::location { 'www.example.com static':
  server   => 'www.example.com',
  location => '/static/',
  www_root => '/srv/static',
  ssl      => true,
  ssl_only => true,
}
