node /^www\d+/ {
  notify { 'regex': }
}
node 'www01.example.com' {
  notify { 'exact': }
}
