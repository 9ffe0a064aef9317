class apache::mod::ssl {
  file { '/tmp/marionette-ssl.conf': ensure => file }
}
