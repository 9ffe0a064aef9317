function mydata::keyed(String $key, Hash $options, Puppet::LookupContext $context) {
  if $context.cache_has_key($key) {
    return $context.cached_value($key)
  }
  $file = regsubst($options['path'], '^.*/', '')
  case $key {
    'app::size': { $context.cache($key, "size ${options['answer']} from ${file}") }
    'app::where': { $context.cache($key, $context.interpolate('%{facts.fqdn} via %{trusted.certname}')) }
    'app::list': { $context.cache($key, [$file, $options['answer']]) }
    default: { $context.not_found() }
  }
}
