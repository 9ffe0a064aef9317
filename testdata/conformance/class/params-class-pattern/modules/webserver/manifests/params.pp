class webserver::params {
  $packages = $facts['os']['family'] ? {
    'Debian' => 'apache2',
    'RedHat' => 'httpd',
  }
  $vhost_dir = $facts['os']['family'] ? {
    'Debian' => '/etc/apache2/sites-enabled',
    'RedHat' => '/etc/httpd/conf.d',
  }
}
