class base {
  File { mode => '0600' }
}
class derived inherits base {
  file { '/tmp/marionette-derived': ensure => file }
}
include derived
