class app {
  file { '/tmp/marionette-app.conf': ensure => file }
  notify { 'app': }
}
file { '/tmp/marionette-trigger': ensure => file }
class { 'app': subscribe => File['/tmp/marionette-trigger'] }
