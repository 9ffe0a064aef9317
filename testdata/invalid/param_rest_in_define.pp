define a($x, *$y) {
}
