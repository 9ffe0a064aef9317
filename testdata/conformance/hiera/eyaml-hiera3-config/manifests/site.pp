$eyaml_keys = regsubst($settings::hiera_config, 'hiera\.yaml$', 'keys')
$case_data = regsubst($settings::hiera_config, 'hiera\.yaml$', 'data')
notify { 'secret': message => lookup('secret') }
notify { 'other': message => lookup('other') }
notify { 'plain': message => lookup('plain') }
