$osname = 'Ubuntu'
$pkg = $osname ? {
  'redhat' => 'httpd',
  /^(Ubuntu|Debian)$/ => "apache2-for-${1}",
  default => 'other',
}
$port = 8080 ? {
  Integer[1, 1024] => 'privileged',
  default => 'unprivileged',
}
notify { "pkg=${pkg} port=${port}": }
