apply('host') {
}
