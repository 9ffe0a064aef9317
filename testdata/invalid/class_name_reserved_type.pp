class integer {
}
