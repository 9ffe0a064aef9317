function class() {
}
