$eyaml_keys = regsubst($settings::hiera_config, 'hiera\.yaml$', 'keys')
notify { 'password':
  message => lookup('password'),
}
