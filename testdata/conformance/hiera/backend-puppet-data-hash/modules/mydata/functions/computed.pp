function mydata::computed(Hash $options, Puppet::LookupContext $context) {
  {
    'app::app_name' => "${options['prefix']}-app",
    'app::port'    => $options['port'] + 1,
    'app::greeting' => 'hello %{facts.fqdn}',
    'app::env'     => "env ${context.environment_name()}",
    'app::module'  => String($context.module_name()),
    'app::keys'    => $options.keys.sort,
  }
}
