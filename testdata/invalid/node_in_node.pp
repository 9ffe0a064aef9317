node a {
  node b {}
}
