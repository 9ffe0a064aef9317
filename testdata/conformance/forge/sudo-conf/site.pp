class { 'sudo': }

sudo::conf { 'admins':
  priority => 10,
  content  => '%admins ALL=(ALL) NOPASSWD: ALL',
}

sudo::conf { 'deploy':
  priority => 60,
  content  => ['deploy ALL=(root) NOPASSWD: /usr/bin/systemctl restart app', 'Defaults:deploy !requiretty'],
}
