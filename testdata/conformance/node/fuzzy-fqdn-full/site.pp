node 'web01.example.com' {
  notify { 'full fqdn fact': }
}
node 'web01' {
  notify { 'short fqdn prefix': }
}
