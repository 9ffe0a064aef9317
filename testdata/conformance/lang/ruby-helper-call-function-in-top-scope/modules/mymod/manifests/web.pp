class mymod::web {
  notify { "web ${::picked}": }
}
