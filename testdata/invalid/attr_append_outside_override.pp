file { '/tmp/x':
  require +> File['/tmp'],
}
