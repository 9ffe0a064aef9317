class apache::mod {
  notify { 'misplaced': }
}
