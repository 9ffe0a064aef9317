node n {
  function f() {}
}
