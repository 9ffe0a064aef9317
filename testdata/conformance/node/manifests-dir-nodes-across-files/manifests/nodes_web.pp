node 'web01.example.com' {
  notify { 'web': }
}
