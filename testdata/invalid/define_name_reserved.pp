define node() {
}
