if true {
  function f() {}
}
