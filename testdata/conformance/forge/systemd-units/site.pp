systemd::unit_file { 'foo.service':
  content => "[Unit]\nDescription=foo\n[Service]\nExecStart=/usr/bin/foo\n",
  enable  => true,
  active  => true,
}

systemd::manage_unit { 'myrunner.service':
  unit_entry    => {
    'Description' => 'My great service',
  },
  service_entry => {
    'Type'      => 'oneshot',
    'ExecStart' => '/usr/bin/doit.sh',
  },
  install_entry => {
    'WantedBy' => 'multi-user.target',
  },
  enable        => true,
  active        => true,
}

systemd::dropin_file { 'foo.conf':
  unit    => 'foo.service',
  content => "[Service]\nEnvironment=FOO=bar\n",
}
