node 'web01.example.com' {
  notify { 'web01': }
}
node default {
  notify { 'default node': }
}
