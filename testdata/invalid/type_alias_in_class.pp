class a {
  type A = Integer
}
