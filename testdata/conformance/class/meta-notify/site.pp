class app {
  file { '/tmp/marionette-app.conf': ensure => file }
  notify { 'app': }
}
service { 'app': ensure => running }
class { 'app': notify => Service['app'] }
