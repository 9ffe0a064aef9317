node /web\d+ {
}
