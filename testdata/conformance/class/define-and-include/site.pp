class base {
  file { '/tmp/marionette-base': ensure => file, mode => '0644' }
}
include base
