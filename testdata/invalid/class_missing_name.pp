class {
}
