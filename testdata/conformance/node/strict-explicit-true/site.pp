node 'web01' {
  notify { 'short name': }
}
node default {
  notify { 'default node': }
}
