firewall { '000 accept all icmp':
  proto => 'icmp',
  jump  => 'accept',
}
firewall { '001 accept all to lo interface':
  proto   => 'all',
  iniface => 'lo',
  jump    => 'accept',
}
firewall { '003 accept related established rules':
  proto => 'all',
  state => ['RELATED', 'ESTABLISHED'],
  jump  => 'accept',
}
firewall { '100 allow http and https':
  dport => [80, 443],
  proto => 'tcp',
  jump  => 'accept',
}
firewall { '999 drop all':
  proto  => 'all',
  jump   => 'drop',
  before => undef,
}
firewallchain { 'INPUT:filter:IPv4':
  ensure => present,
  policy => drop,
}
