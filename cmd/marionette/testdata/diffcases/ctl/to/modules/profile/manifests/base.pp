class profile::base {
  file { '/etc/motd':
    ensure => file,
    mode   => '0644',
    source => 'puppet:///modules/profile/motd',
  }
  file { '/etc/app.conf':
    ensure  => file,
    content => epp('profile/app.conf.epp', { 'port' => 8080 }),
  }
  package { 'htop':
    ensure          => installed,
    install_options => ['--no-install-recommends'],
  }
  notify { 'host':
    message => "${facts['networking']['hostname']} runs ${trusted['extensions']['pp_role']} on ${facts['os']['release']['major']}",
  }
  if $facts['os']['release']['major'] == '12' {
    package { 'bookworm-only':
      ensure => installed,
    }
  }
}
