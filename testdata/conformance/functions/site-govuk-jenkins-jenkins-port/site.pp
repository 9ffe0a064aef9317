class jenkins::params { $port = 8080 }
class jenkins($config_hash = {}) { }
include jenkins::params
class { 'jenkins': config_hash => { 'HTTP_PORT' => { 'value' => 9090 } } }
notify { 'call 1: configured': message => jenkins_port() }
