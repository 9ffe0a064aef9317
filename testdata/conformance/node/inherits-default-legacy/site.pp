node default {
  notify { 'default node': }
}
node 'web01.example.com' inherits default {
  notify { 'web01': }
}
