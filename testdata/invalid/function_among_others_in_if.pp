if true {
  $x = 1
  function f() {}
}
