node 'web01' {
  notify { 'web01': }
}
node 'web01.example' {
  notify { 'web01.example': }
}
