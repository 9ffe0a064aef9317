node 'web01.example' {
  notify { 'web01.example': }
}
node default {
  notify { 'default node': }
}
