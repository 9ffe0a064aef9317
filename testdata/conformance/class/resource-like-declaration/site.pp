class base ($motd = 'hello') {
  file { '/tmp/marionette-motd': ensure => file, content => $motd }
}
class { 'base': motd => 'welcome' }
