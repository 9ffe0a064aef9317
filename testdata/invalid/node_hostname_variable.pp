node $x {
}
