node 'web01.example.com' {
  @@file { '/tmp/exported/web01': content => 'x', tag => ['a'] }
}
node 'mon.example.com' {
  File <<| tag == 'a' |>> { owner => 'first' }
  File <<| |>> { group => 'second' }
}
