class a inherits {
}
