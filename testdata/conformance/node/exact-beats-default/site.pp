node default {
  notify { 'default node': }
}
node 'web01.example.com' {
  notify { 'exact': }
}
