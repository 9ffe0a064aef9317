function mydata::keyed(String $key, Hash $options, Puppet::LookupContext $context) {
  $base = regsubst($options['path'], '^.*/', '')
  case $key {
    'lookup_options': { $context.not_found() }
    default: { "${key} from ${base}" }
  }
}
