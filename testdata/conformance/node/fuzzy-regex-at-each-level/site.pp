node 'web01' {
  notify { 'exact web01': }
}
node /^web\d+\.example$/ {
  notify { 'regex on web01.example': }
}
