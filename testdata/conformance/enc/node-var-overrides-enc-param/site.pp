node 'web01.example.com' {
  $ntpserver = 'node.example.com'
  notify { "node sees ${ntpserver}, top is ${::ntpserver}": }
}
