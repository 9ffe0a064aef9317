define a() {
  1 + 1
}
