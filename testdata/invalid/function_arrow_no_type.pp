function foo() >> {
}
