class app(String $version) {
  notify { "version=${version}": }
}
