function site::f() {
  $nope
}
notify { "f=${site::f()}": }
