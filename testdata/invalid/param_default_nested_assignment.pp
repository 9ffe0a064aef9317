define a($x = [$y = 1]) {
}
