class { 'ssh::server':
  storeconfigs_enabled => false,
  options              => {
    'PermitRootLogin'        => 'no',
    'PasswordAuthentication' => 'no',
  },
}
