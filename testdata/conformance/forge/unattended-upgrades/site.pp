class { 'unattended_upgrades':
  age    => { 'max' => 10 },
  auto   => { 'reboot' => true },
  backup => { 'level' => 5 },
}
