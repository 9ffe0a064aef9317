class apache {
  notify { 'apache init must not load': }
}
