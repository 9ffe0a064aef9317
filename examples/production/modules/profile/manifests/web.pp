# A web server: a vhost per site, each a defined type instance.
class profile::web (
  Hash[String, Integer] $sites = { 'www' => 80, 'api' => 8080 },
) {
  package { 'nginx': ensure => installed }

  $sites.each |String $name, Integer $port| {
    profile::vhost { $name:
      port    => $port,
      require => Package['nginx'],
    }
  }

  service { 'nginx':
    ensure    => running,
    enable    => true,
    subscribe => Package['nginx'],
  }
}
