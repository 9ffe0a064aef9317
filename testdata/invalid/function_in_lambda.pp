[1].each |$x| {
  function f() {}
}
