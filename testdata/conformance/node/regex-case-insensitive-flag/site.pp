node /(?i)^WEB/ {
  notify { 'matched (?i) regex': }
}
node default {
  notify { 'default node': }
}
