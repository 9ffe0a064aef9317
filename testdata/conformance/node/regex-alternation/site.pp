node /^(one|two)\.example\.com$/ {
  notify { 'matched one-or-two': }
}
