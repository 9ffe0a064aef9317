class motd {
  file { '/tmp/marionette-motd': ensure => file, content => "${::motd_text}\n" }
}
