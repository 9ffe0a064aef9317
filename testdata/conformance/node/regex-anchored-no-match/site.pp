node /^www\d+$/ {
  notify { 'matched www regex': }
}
node default {
  notify { 'default node': }
}
