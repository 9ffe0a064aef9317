class { 'mongodb::globals':
  manage_package_repo => true,
  repo_version        => '7.0',
}
class { 'mongodb::server':
  auth           => true,
  admin_username => 'admin',
  admin_password => 'adminpass',
  create_admin   => true,
  store_creds    => true,
}
mongodb::db { 'app':
  user     => 'app',
  password => 'apppass',
}
