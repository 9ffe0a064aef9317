define profile::site() {
  notify { "site ${title} in ${module_name}": }
}
