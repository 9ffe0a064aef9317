class db {
  contain db::install
  contain db::config
  Class['db::install'] -> Class['db::config']
}
class db::install {
  package { 'postgresql': ensure => installed }
}
class db::config {
  file { '/tmp/marionette-pg.conf': ensure => file }
}
class app {
  notify { 'app': }
}
include db
class { 'app': require => Class['db'] }
