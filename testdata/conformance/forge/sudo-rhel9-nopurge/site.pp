class { 'sudo':
  purge               => false,
  config_file_replace => false,
}

sudo::conf { 'wheel':
  content => '%wheel ALL=(ALL) ALL',
}
