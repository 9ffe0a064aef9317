node default {
  notify { 'default node': }
}
node /^web/ {
  notify { 'regex': }
}
