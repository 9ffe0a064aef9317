define mon::check(Integer $port, String $proto = 'tcp') {
  notify { "check ${title} ${proto}/${port}": }
}
node /^web/ {
  @@mon::check { "http-${facts['hostname']}": port => 80 }
  @@mon::check { "ssh-${facts['hostname']}": port => 22, proto => 'ssh' }
}
node 'mon.example.com' {
  Mon::Check <<| port == 80 |>>
}
