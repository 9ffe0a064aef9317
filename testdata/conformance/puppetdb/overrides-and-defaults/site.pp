node /^web/ {
  @@file { "/tmp/exported/${facts['hostname']}": content => 'x', mode => '0644', owner => 'nobody' }
}
node 'mon.example.com' {
  include monitor
}
class monitor {
  File { group => 'adm', mode => '0640' }
  File <<| |>> { owner => 'root', backup => false }
}
