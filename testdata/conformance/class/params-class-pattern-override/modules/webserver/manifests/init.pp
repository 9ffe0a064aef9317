class webserver (
  $packages  = $webserver::params::packages,
  $vhost_dir = $webserver::params::vhost_dir,
) inherits webserver::params {
  package { $packages: ensure => present }
  file { $vhost_dir: ensure => directory }
}
