node a {
  $x
}
