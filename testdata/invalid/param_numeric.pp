class a($1) {
}
