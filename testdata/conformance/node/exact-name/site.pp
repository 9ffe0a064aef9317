node 'web01.example.com' {
  notify { 'matched web01.example.com': }
}
node 'db01.example.com' {
  notify { 'matched db01.example.com': }
}
