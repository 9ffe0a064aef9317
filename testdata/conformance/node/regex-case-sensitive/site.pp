node /^WEB/ {
  notify { 'matched upper-case regex': }
}
node default {
  notify { 'default node': }
}
