node 'web01.example.com' {
  @@notify { 'web01': message => 'x', tag => ['first'] }
}
node 'mon.example.com' {
  Notify <<| |>> { tag +> ['second'], loglevel => 'info' }
}
