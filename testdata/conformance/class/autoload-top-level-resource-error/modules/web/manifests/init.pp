class web {
  notify { 'web': }
}
notify { 'stray': }
$port = 80
