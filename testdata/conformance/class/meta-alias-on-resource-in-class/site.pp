class app {
  file { '/tmp/marionette-app.conf': ensure => file, tag => 'config', loglevel => 'info' }
}
class { 'app': tag => 'frontend', loglevel => 'warning' }
