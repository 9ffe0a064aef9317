user { 'deploy':
  ensure     => present,
  managehome => true,
}

ssh_authorized_key { 'deploy@laptop':
  ensure => present,
  user   => 'deploy',
  type   => 'ssh-ed25519',
  key    => 'AAAAC3NzaC1lZDI1NTE5AAAAIKnH3b4N0P6Q0lSg9k0b3pA7C0E7x7eQ0Xy6Q1w2e3r4',
}

sshkey { 'git.example.com':
  ensure       => present,
  type         => 'ssh-ed25519',
  key          => 'AAAAC3NzaC1lZDI1NTE5AAAAIKnH3b4N0P6Q0lSg9k0b3pA7C0E7x7eQ0Xy6Q1w2e3r4',
  host_aliases => ['git'],
}
