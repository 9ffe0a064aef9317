node 'web01.example.com' {
  notify { 'from fqdn fact': }
}
node 'app01' {
  notify { 'from certname prefix': }
}
