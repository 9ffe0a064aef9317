node default inherits base {
}
