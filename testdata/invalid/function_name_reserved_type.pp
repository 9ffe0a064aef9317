function hash() {
}
