class motd(String $banner = 'Welcome') {
  file { '/etc/motd':
    ensure  => file,
    content => epp('motd/motd.epp', {'host' => $facts['hostname']}),
  }
}
