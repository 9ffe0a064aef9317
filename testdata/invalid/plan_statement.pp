plan foo() {
}
