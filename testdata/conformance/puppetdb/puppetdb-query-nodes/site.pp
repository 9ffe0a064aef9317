node /^web/ {
  notify { 'web': }
}
node 'mon.example.com' {
  $nodes = puppetdb_query('nodes[certname] { order by certname }').map |$n| { $n['certname'] }
  notify { "nodes ${nodes}": }
}
