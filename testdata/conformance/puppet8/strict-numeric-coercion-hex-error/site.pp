notify { "x":
  message => "${"0x10" - 1}",
}
