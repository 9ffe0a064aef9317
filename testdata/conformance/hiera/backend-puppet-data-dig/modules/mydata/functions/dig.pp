function mydata::dig(Array $segments, Hash $options, Puppet::LookupContext $context) {
  if $segments[0] == 'lookup_options' {
    $context.not_found()
  }
  case $segments[0] {
    'app::db': {
      if $segments.length == 1 { { 'host' => 'db1', 'ports' => [5432, 5433] } }
      else { "digged ${segments.map |$s| { "${s}:${type($s, generalized)}" }.join('/')}" }
    }
    default: { $context.not_found() }
  }
}
