augeas { 'sshd_config':
  context => '/files/etc/ssh/sshd_config',
  changes => [
    'set PermitRootLogin no',
    'set PasswordAuthentication no',
  ],
  onlyif  => 'get PermitRootLogin != no',
}
augeas { 'sysctl forwarding':
  incl    => '/etc/sysctl.conf',
  lens    => 'Sysctl.lns',
  changes => 'set net.ipv4.ip_forward 1',
}
