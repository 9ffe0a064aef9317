class class {
}
