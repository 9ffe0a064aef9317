class app ($port = 80) {
  notify { "port=${port}": }
}
class { 'app': colour => 'blue' }
