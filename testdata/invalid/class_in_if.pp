if $x {
  class a {
  }
}
