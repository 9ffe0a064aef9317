node 'web01.example.com' {
  notify { 'matched lower-case definition': }
}
node default {
  notify { 'fell through to default': }
}
