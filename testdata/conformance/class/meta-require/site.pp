class app {
  file { '/tmp/marionette-app.conf': ensure => file }
  notify { 'app': }
}
package { 'runtime': ensure => installed }
class { 'app': require => Package['runtime'] }
