function g() {
  class c {}
}
