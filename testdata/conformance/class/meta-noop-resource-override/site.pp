class app {
  file { '/tmp/marionette-app.conf': ensure => file, noop => false }
  notify { 'app': }
}
class { 'app': noop => true }
