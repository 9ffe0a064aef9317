node 'web01.example.com', 'web02.example.com' {
  notify { 'first': }
}
node 'web02.example.com' {
  notify { 'second': }
}
