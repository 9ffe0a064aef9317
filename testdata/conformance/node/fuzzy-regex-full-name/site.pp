node 'web01.example' {
  notify { 'exact web01.example': }
}
node /\.com$/ {
  notify { 'regex on full name': }
}
