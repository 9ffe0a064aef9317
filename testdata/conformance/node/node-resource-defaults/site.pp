node 'web01.example.com' {
  File { mode => '0600' }
  include app
}
class app {
  file { '/tmp/marionette-app': ensure => file }
}
