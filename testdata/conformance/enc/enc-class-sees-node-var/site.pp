node 'web01.example.com' {
  $ntpserver = 'node.example.com'
}
