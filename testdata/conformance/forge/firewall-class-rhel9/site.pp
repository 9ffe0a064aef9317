class { 'firewall':
  ensure_v6 => 'running',
}
firewall { '100 allow ssh v6':
  dport    => 22,
  proto    => 'tcp',
  jump     => 'accept',
  protocol => 'ip6tables',
}
