node /www\d/ {
  notify { 'matched unanchored regex': }
}
