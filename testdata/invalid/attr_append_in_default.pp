File {
  require +> File['/tmp'],
}
