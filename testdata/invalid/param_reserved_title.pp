define a($title) {
}
