node 'db01' {
  notify { 'db01': }
}
