node /^web/ {
  @@notify { "hello ${facts['hostname']}": message => $facts['hostname'] }
}
node 'mon.example.com' {
  $want = 'web02'
  Notify <<| message == $want or title == "hello ${want}x" |>>
}
