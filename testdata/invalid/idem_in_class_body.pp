class a {
  1
  notify { 'x': }
}
