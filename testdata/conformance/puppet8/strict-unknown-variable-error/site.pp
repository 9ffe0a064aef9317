notify { "x":
  message => $nope,
}
