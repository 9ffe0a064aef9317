include elastic_stack::repo
class { 'elasticsearch':
  config => {
    'cluster.name' => 'es01',
    'network.host' => '0.0.0.0',
  },
  jvm_options => ['-Xms1g', '-Xmx1g'],
}
