node /^web01\.example$/ {
  notify { 'regex web01.example': }
}
node 'web01.example' {
  notify { 'exact web01.example': }
}
