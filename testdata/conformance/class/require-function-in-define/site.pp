class apache {
  package { 'apache2': ensure => installed }
}
define apache::vhost ($port) {
  require apache
  notify { "vhost ${title} on ${port}": }
}
apache::vhost { 'www': port => 80 }
apache::vhost { 'api': port => 8080 }
