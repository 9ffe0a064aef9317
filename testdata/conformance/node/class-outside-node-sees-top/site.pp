$tier = 'top'
include app
node 'web01.example.com' {
  $tier = 'node'
  notify { "node sees ${tier}": }
}
class app {
  notify { "app sees ${tier}": }
}
