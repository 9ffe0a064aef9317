node 'web01.example.com' {
  @@file { '/tmp/exported/web01': content => 'x' }
}
node 'mon.example.com' {
  Service <<| |>>
  notify { 'done': }
}
