notify { "n":
  message => "${nosuch::x}",
}
