define a() {
  class b {
  }
}
