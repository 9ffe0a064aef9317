node 'web01.example.com' {
  notify { 'first': }
}
node 'web01.example.com' {
  notify { 'second': }
}
