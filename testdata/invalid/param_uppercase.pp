class a($Foo) {
}
