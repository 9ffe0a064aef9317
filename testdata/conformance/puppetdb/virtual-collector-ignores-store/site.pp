node 'web01.example.com' {
  @@file { '/tmp/exported/web01': content => 'web' }
}
node 'mon.example.com' {
  @file { '/tmp/virtual': content => 'v' }
  File <| |>
}
