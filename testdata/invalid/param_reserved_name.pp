class a($name) {
}
