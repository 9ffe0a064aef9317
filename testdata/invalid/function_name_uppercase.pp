function Foo() {
}
