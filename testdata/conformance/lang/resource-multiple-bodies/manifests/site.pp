package {
  'nginx':
    ensure => installed;
  'curl':
    ensure => latest;
}
