define a() {
  define b() {
  }
}
