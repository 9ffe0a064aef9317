class a($x {
}
