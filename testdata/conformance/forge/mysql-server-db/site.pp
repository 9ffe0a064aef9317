class { 'mysql::server':
  root_password           => 'strongpassword',
  remove_default_accounts => true,
  restart                 => true,
  override_options        => {
    'mysqld' => {
      'bind-address'    => '127.0.0.1',
      'max_connections' => '512',
    },
  },
}
mysql::db { 'appdb':
  user     => 'app',
  password => 'apppass',
  host     => 'localhost',
  grant    => ['SELECT', 'UPDATE'],
}
