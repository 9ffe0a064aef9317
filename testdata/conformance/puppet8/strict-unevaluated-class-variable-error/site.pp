class db {
  $name = "x"
}
notify { "n":
  message => $db::name,
}
