class { 'postgresql::globals':
  manage_package_repo => true,
  version             => '16',
}

include postgresql::server
