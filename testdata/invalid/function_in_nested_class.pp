class a {
  class b {
    function f() {}
  }
}
