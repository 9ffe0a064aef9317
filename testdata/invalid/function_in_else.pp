if true {} else {
  function f() {}
}
