class a($x = ) {
}
