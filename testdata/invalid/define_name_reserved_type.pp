define string() {
}
