# The keys sit beside hiera.yaml: the options find them through a top-scope
# variable, since key paths are not relative to the hiera.yaml.
$eyaml_keys = regsubst($settings::hiera_config, 'hiera\.yaml$', 'keys')
include app
notify { 'plain_key':
  message => lookup('plain_key'),
}
notify { 'merged_secrets':
  message => lookup('merged_secrets'),
}
notify { 'dug':
  message => lookup('app::settings.nested.deep'),
}
