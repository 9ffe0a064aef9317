class jenkins::params { $prefix = '/jenkins' }
class jenkins($config_hash = {}) { }
include jenkins::params
class { 'jenkins': config_hash => { 'HTTP_PORT' => { 'value' => 9090 } } }
notify { 'call 1: default': message => jenkins_prefix() }
