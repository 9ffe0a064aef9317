class app ($base = '/opt/app', $conf = "${base}/etc") {
  file { $conf: ensure => directory }
}
class { 'app': base => '/tmp/marionette-app' }
