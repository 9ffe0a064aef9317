node /foo/i {
}
