node 'db01' {
  notify { 'db01': }
}
node default {
  notify { 'default node': }
}
