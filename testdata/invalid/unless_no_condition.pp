unless {
}
