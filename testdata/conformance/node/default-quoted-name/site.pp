node 'default' {
  notify { 'quoted default': }
}
