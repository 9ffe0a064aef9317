case $x {
  default, default: {}
}
