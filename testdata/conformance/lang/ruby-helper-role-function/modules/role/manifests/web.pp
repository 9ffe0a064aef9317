class role::web {
  notify { "role::web for ${::role}": }
}
