[1].each |$x| {
  define a() {}
}
