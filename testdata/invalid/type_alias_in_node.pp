node a {
  $x = 1
  type T = Integer
}
