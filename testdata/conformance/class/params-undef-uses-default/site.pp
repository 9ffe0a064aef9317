class app ($mode = '0640') {
  file { '/tmp/marionette-app.conf': ensure => file, mode => $mode }
}
class { 'app': mode => undef }
