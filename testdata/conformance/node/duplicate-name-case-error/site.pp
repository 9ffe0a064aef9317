node 'web01.example.com' {
  notify { 'lower': }
}
node 'WEB01.example.com' {
  notify { 'upper': }
}
