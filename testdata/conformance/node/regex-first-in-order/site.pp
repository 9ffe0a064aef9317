node /^www/ {
  notify { 'first regex': }
}
node /example\.com$/ {
  notify { 'second regex': }
}
