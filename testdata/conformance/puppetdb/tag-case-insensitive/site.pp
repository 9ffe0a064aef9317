node 'web01.example.com' {
  @@notify { 'from web01': message => 'one', tag => 'monitoring' }
}
node 'web02.example.com' {
  @@notify { 'from web02': message => 'two', tag => ['MONITORING', 'Other'] }
  @@notify { 'untagged web02': message => 'three' }
}
node 'mon.example.com' {
  Notify <<| tag == 'Monitoring' |>>
}
