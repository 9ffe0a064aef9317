application foo() {
}
