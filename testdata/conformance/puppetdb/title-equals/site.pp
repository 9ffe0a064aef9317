node /^web/ {
  @@file { "/tmp/exported/${facts['hostname']}": content => $facts['hostname'] }
}
node 'mon.example.com' {
  File <<| title == '/tmp/exported/web02' |>>
}
