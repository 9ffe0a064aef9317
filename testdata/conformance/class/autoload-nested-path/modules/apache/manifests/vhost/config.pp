class apache::vhost::config {
  file { '/tmp/marionette-vhost.conf': ensure => file }
}
