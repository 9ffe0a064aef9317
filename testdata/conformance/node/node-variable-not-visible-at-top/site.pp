node 'web01.example.com' {
  $from_node = 'set'
}
notify { "top sees '${from_node}'": }
