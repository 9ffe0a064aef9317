site {
}
