class foo-bar {
}
