define my-type($x) {
}
