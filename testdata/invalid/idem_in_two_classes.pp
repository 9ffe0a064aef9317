class a {
  1
  notice(1)
}
class b {
  'x'
  notice(1)
}
