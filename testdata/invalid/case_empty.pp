case $x {
}
