function app::defaults(String $key, Hash $options, Puppet::LookupContext $context) {
  case $key {
    'app::flavour': { "${options['flavour']} from ${context.module_name()}" }
    'app::owner': { $context.module_name() }
    default: { $context.not_found() }
  }
}
