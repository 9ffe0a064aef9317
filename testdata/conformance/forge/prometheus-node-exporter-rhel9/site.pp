class { 'prometheus::node_exporter':
  version            => '1.8.2',
  collectors_disable => ['loadavg', 'mdadm'],
}
