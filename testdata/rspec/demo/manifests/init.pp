# A package, its configuration and its service, with data from Hiera.
class demo (
  String $package_name,
  Integer[1, 65535] $port,
  Enum['running', 'stopped'] $ensure = 'running',
  Optional[String] $motd = undef,
) {
  if $facts['os']['family'] == 'Solaris' {
    fail("demo does not support ${facts['os']['family']}")
  }
  package { $package_name:
    ensure => installed,
  }
  file { '/etc/demo.conf':
    ensure  => file,
    content => epp('demo/demo.conf.epp', { 'port' => $port, 'role' => $trusted['extensions']['pp_role'] }),
    require => Package[$package_name],
    notify  => Service['demo'],
  }
  service { 'demo':
    ensure => $ensure,
  }
  if $motd {
    demo::line { 'motd':
      path => '/etc/motd',
      line => $motd,
    }
  }
  @@file { "/etc/demo/peers/${facts['networking']['fqdn']}":
    content => $facts['networking']['ip'],
  }
}
