unless $x {
} else {
} else {
}
