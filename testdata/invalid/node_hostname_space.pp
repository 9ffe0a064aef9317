node 'foo bar' {
}
