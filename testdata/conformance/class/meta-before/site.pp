class app {
  file { '/tmp/marionette-app.conf': ensure => file }
  notify { 'app': }
}
notify { 'later': }
class { 'app': before => Notify['later'] }
