node 'web01.example.com' {
  notify { 'from nodes/web.pp': }
}
