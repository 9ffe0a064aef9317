define monitor::collect() {
  Notify <<| tag == 'probe' |>>
}
node 'web01.example.com' {
  @@notify { 'probe web01': message => 'up', tag => 'probe' }
}
node 'mon.example.com' {
  monitor::collect { 'all': }
}
