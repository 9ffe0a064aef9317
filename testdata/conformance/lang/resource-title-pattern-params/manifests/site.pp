file { '/tmp/marionette-dir/': ensure => directory }
package { 'pkgtitle': name => 'realname', ensure => installed }
exec { '/bin/echo hi': }
file { 'fileA': path => '/tmp/marionette-b' }
service { 'marionette-svc': name => 'marionette-svc', enable => false }
file { '/tmp/marionette-c': path => '/tmp/marionette-c' }
