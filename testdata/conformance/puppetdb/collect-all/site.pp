node /^web/ {
  @@file { "/tmp/exported/${facts['hostname']}": content => $facts['networking']['ip'], tag => ['Web'] }
  file { "/tmp/local/${facts['hostname']}": content => 'not exported' }
}
node 'mon.example.com' {
  include monitor
}
class monitor {
  File <<| |>>
}
