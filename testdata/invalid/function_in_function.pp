function g() {
  function f() {}
}
