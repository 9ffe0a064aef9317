class app ($port, $user = 'app') {
  notify { "port=${port}": }
}
class { 'app': user => 'web' }
