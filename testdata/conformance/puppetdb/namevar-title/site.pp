node 'web01.example.com' {
  @@file { 'motd-web01': path => '/tmp/motd-web01', content => 'hi' }
  @@package { 'ntp-web01': name => 'ntp', ensure => installed }
}
node 'mon.example.com' {
  File <<| |>>
  Package <<| |>>
}
