class ntp {
  file { '/tmp/marionette-ntp.conf': ensure => file, notify => Class['ntp::service'] }
  contain ntp::service
}
class ntp::service {
  service { 'ntp': ensure => running }
}
include ntp
