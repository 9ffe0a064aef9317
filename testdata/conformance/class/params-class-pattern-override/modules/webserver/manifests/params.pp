class webserver::params {
  $packages = 'apache2'
  $vhost_dir = '/etc/apache2/sites-enabled'
}
