class aptsetup (Array[String] $additional_apt_repos = []) {
  notify { "repos=${additional_apt_repos.length}": }
}
