define a inherits b {
}
