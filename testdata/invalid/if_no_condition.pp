if {
  notice(1)
}
