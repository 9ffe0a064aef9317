if $x {
} else {
} elsif $y {
}
