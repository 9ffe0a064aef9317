class apache {
  package { 'httpd': ensure => installed }
  file { '/tmp/marionette-httpd.conf': ensure => file }
  file { '/tmp/marionette-apache.pem': ensure => file }
  service { 'apache':
    require => Package['httpd'],
  }
}
class apache::ssl inherits apache {
  Service['apache'] {
    require +> [File['/tmp/marionette-apache.pem'], File['/tmp/marionette-httpd.conf']],
  }
}
include apache::ssl
