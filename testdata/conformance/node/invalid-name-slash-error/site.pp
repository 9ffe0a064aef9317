node 'web/01' {
  notify { 'slash': }
}
node default {}
