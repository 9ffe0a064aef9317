node 'web01.example.com' {
  @@file { '/tmp/exported/web01': content => 'web' }
}
node 'mon.example.com' {
  File <<| title == '/tmp/nothing' |>>
  notify { 'done': }
}
