define Foo::bar() {
}
