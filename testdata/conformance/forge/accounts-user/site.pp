accounts::user { 'alice':
  comment  => 'Alice Example',
  groups   => ['sudo'],
  shell    => '/bin/bash',
  uid      => 1100,
  gid      => 1100,
  sshkeys  => ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFakeKeyForConformanceOnly alice@example.com'],
  password => '!!',
}
