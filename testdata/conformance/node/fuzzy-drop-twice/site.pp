node 'web01' {
  notify { 'web01': }
}
node default {
  notify { 'default node': }
}
