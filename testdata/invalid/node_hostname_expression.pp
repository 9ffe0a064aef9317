node 1 + 1 {
}
