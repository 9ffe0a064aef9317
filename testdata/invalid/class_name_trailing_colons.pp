class foo:: {
}
