node /example\.com$/ {
  notify { 'first regex': }
}
node /^www/ {
  notify { 'second regex': }
}
