class a {
  'x'
}
