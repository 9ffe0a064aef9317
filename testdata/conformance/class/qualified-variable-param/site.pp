class config ($port = 8080) {}
class { 'config': port => 9090 }
notify { "port=${config::port}": }
