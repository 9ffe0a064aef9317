node 'common' {
  $ntpserver = 'time.example.com'
  notify { 'common node': }
}
node 'www1.example.com' inherits 'common' {
  notify { "ntp=${ntpserver}": }
}
