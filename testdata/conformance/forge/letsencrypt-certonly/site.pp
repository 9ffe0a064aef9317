class { 'letsencrypt':
  email => 'ops@example.com',
}
letsencrypt::certonly { 'www.example.com':
  domains       => ['www.example.com', 'example.com'],
  plugin        => 'webroot',
  webroot_paths => ['/var/www/html'],
}
