class role::generic {
  notify { 'generic': }
}
