define {
}
