class app (Integer $port = 8080) {
  notify { "port=${port}": }
}
class { 'app': port => 'eighty' }
