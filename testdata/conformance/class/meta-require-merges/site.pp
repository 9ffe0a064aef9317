class app {
  file { '/tmp/marionette-app.conf': ensure => file, require => Package['lib'] }
}
package { 'lib': ensure => installed }
package { 'runtime': ensure => installed }
class { 'app': require => Package['runtime'] }
