class aptsetup (Array[String] $additional_apt_repos = []) {
  $additional_apt_repos.each |$index, $repo| {
    notify { "repo ${index}: ${repo}": }
  }
}
