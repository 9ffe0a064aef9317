@@File['/tmp/x'] {
  mode => '0644',
}
