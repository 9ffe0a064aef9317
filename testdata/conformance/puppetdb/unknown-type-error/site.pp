node /^web/ {
  @@file { "/tmp/exported-${facts['hostname']}": content => 'x' }
}
node 'mon.example.com' {
  File <<| |>>
  Nosuch <<| title == '/tmp/exported-web01' |>>
}
