define d() {
  function f() {}
}
