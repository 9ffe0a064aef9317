if true {
  1
  notice(2)
}
