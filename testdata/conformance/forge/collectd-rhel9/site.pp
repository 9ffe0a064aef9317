class { 'collectd':
  purge           => true,
  recurse         => true,
  purge_config    => true,
  minimum_version => '5.8',
}
class { 'collectd::plugin::syslog':
  log_level => 'warning',
}
class { 'collectd::plugin::interface':
  interfaces     => ['lo'],
  ignoreselected => true,
}
collectd::plugin::write_graphite::carbon { 'graphite01':
  graphitehost => 'graphite.example.com',
  graphiteport => 2003,
  protocol     => 'tcp',
}
