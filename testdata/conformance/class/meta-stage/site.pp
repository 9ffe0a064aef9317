class app {
  file { '/tmp/marionette-app.conf': ensure => file }
  notify { 'app': }
}

stage { 'pre': before => Stage['main'] }
class { 'app': stage => 'pre' }
