class a($x, $x) {
}
