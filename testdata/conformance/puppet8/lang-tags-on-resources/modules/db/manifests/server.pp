class db::server {
  package { 'postgresql': tag => ['database', 'critical'] }
  file { '/var/lib/pg data': ensure => directory, tag => 'storage' }
}
