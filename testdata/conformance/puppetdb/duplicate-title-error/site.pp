node /^web/ {
  @@file { '/tmp/shared': content => $facts['hostname'] }
}
node 'mon.example.com' {
  File <<| |>>
}
