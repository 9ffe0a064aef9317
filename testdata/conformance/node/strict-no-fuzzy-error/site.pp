node 'web01' {
  notify { 'short name': }
}
