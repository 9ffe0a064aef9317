node 'web01.example.com' {
  package { 'ntp': }
  @@file { '/tmp/exported/web01': content => 'x', require => Package['ntp'], notify => Service['ntp'] }
}
node 'mon.example.com' {
  package { 'ntp': }
  service { 'ntp': }
  File <<| |>>
}
