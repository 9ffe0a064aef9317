function if() {
}
