[1].each |$x| {
  1
  notice(2)
}
