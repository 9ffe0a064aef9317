$tier = 'top'
node 'web01.example.com' {
  $tier = 'node'
  notify { "node sees ${tier}, top is ${::tier}": }
}
