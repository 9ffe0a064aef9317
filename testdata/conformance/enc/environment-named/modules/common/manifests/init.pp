class common {
  notify { 'common': }
}
