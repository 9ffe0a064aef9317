class { 'elastic_stack::repo':
  version => 8,
}
class { 'elasticsearch':
  version => '8.11.1',
  config  => { 'cluster.name' => 'logs', 'discovery.type' => 'single-node' },
}
elasticsearch::plugin { 'analysis-icu': }
