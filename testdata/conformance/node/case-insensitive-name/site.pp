node 'WEB01.Example.COM' {
  notify { 'matched upper-case definition': }
}
node default {
  notify { 'fell through to default': }
}
