function mydata::role_data(Hash $options, Puppet::LookupContext $context) {
  $role = regsubst($options['path'], '^.*/([^/]+)\.txt$', '\1')
  $data = {
    "app::${role}_port" => 1000 + length($role),
    'app::first_role' => $role,
    'app::roles' => [$role],
  }
  $data
}
