$tier = 'top'
node 'web01.example.com' {
  $tier = 'node'
  include app
}
class app {
  notify { "app sees ${tier}": }
}
