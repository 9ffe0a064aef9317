class { 'php':
  fpm        => true,
  extensions => {
    'curl'     => {},
    'mbstring' => {},
    'opcache'  => { 'zend' => true },
  },
  fpm_pools  => {},
}

php::fpm::pool { 'www2':
  listen => '127.0.1.1:9000',
}
