node 'web01.example.com' {
  @@file { '/tmp/exported/web01': content => 'web' }
}
node 'mon.example.com' {
  @@file { '/tmp/exported/mon': content => 'mon' }
  @@file { '/tmp/not-collected': content => 'mon', tag => ['private'] }
  File <<| tag != 'private' |>>
}
