node /^web/ {
  @@file { "/tmp/a/${facts['hostname']}": tag => ['a'] }
  @@file { "/tmp/b/${facts['hostname']}": tag => ['b'] }
}
node 'mon.example.com' {
  File <<| tag == 'a' |>> -> File <<| tag == 'b' |>>
}
