class a(x) {
}
