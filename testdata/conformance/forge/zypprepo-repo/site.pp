zypprepo { 'openSUSE_15.5':
  ensure        => present,
  baseurl       => 'http://download.opensuse.org/distribution/leap/15.5/repo/oss/',
  enabled       => 1,
  autorefresh   => 1,
  gpgcheck      => 1,
  repo_gpgcheck => 1,
  pkg_gpgcheck  => 1,
  priority      => 98,
  keeppackages  => 1,
  type          => 'rpm-md',
}
