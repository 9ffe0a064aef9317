function f($a, $a) {
}
