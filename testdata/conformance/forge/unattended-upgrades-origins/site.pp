class { 'unattended_upgrades':
  origins   => [
    'origin=Debian,codename=${distro_codename},label=Debian',
    'origin=Debian,codename=${distro_codename},label=Debian-Security',
  ],
  blacklist => ['libc6', 'libc6-dev'],
  mail      => { 'to' => 'admin@example.com', 'only_on_error' => true },
}
