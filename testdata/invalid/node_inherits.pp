node a inherits b {
}
