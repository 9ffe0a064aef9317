define mon::check(Integer $port) { }
node /^web/ {
  @@mon::check { "http-${facts['hostname']}": port => 80 }
  @@mon::check { "https-${facts['hostname']}": port => 443 }
}
node 'mon.example.com' {
  Mon::Check <<| port != 80 |>>
}
