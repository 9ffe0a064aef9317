concat { '/tmp/forge-a/motd':
  owner => 'root',
  group => 'root',
  mode  => '0644',
}
concat::fragment { 'motd header':
  target  => '/tmp/forge-a/motd',
  content => "Welcome to ${facts['networking']['fqdn']}\n",
  order   => '01',
}
concat::fragment { 'motd body':
  target => '/tmp/forge-a/motd',
  source => 'puppet:///modules/concat/nonexistent-but-not-read-at-compile',
  order  => '10',
}
