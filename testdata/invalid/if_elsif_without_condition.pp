if $x {
} elsif {
}
