class a {
  'hello'
  notice(1)
}
