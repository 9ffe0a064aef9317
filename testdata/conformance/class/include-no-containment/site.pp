class ntp {
  file { '/tmp/marionette-ntp.conf': ensure => file }
  include ntp::service
}
class ntp::service {
  service { 'ntp': ensure => running }
}
include ntp
