# Everything every node gets.
class profile::base (
  String $motd = $::motd_banner,
) {
  include ntp

  $role_line = $facts['role'] ? {
    undef   => 'role: none',
    default => "role: ${facts['role']}",
  }

  file { '/etc/motd':
    ensure  => file,
    mode    => '0644',
    content => "${motd}\n${role_line}\n",
  }

  package { ['curl', 'vim']:
    ensure => installed,
  }
}
