node 'web 01' {
  notify { 'space': }
}
node default {}
