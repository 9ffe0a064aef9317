class { 'collectd':
  purge           => true,
  recurse         => true,
  purge_config    => true,
  minimum_version => '5.4',
}
include collectd::plugin::cpu
include collectd::plugin::memory
include collectd::plugin::load
class { 'collectd::plugin::df':
  mountpoints    => ['/u'],
  fstypes        => ['nfs', 'tmpfs'],
  ignoreselected => true,
}
class { 'collectd::plugin::network':
  servers => { 'metrics.example.com' => { 'port' => 25826 } },
}
