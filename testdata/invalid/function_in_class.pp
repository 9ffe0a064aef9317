class a {
  function f() {
  }
}
