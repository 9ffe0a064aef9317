define a $x {
}
