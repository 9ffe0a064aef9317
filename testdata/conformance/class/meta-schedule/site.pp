class app {
  file { '/tmp/marionette-app.conf': ensure => file }
  notify { 'app': }
}
schedule { 'nightly': range => '2 - 4' }
class { 'app': schedule => 'nightly' }
