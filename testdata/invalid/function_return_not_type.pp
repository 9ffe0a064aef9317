function f() >> 1 {
}
