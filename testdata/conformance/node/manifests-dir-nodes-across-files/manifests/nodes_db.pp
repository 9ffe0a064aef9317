node 'db01.example.com' {
  notify { 'db': }
}
