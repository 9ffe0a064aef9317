define site::vhost () {
  notify { "vhost ${title} owned by ${owner}": }
}
site::vhost { "a": }
