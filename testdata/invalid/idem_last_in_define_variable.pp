define a() {
  $x = 1
  $x
}
