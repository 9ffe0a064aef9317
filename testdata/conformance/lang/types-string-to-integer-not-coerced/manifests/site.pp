class port(Integer $port) { }
class { 'port': port => '80' }
