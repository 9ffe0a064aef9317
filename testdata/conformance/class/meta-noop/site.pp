class app {
  file { '/tmp/marionette-app.conf': ensure => file }
  notify { 'app': }
}
class { 'app': noop => true }
