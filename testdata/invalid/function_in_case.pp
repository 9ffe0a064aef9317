case 1 {
  default: {
    function f() {}
  }
}
