node 'web01.example.com' {
  package { 'ntp': }
  @@file { '/tmp/exported/web01': content => 'x', require => Package['ntp'] }
}
node 'mon.example.com' {
  File <<| |>>
}
