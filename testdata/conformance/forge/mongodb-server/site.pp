class { 'mongodb::globals':
  manage_package_repo => true,
  repo_version        => '6.0',
}
-> class { 'mongodb::server':
  bind_ip => ['127.0.0.1', '10.0.0.11'],
  port    => 27017,
}
-> class { 'mongodb::client': }
