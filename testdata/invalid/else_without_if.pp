else {
  notice('x')
}
