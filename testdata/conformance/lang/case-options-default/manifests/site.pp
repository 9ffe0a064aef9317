$osname = 'Debian'
case $osname {
  'redhat', 'centos': { $pkg = 'httpd' }
  'ubuntu', 'debian': { $pkg = 'apache2' }
  default: { $pkg = 'unknown' }
}
case 'solaris' {
  'linux': { $other = 'linux' }
  default: { $other = 'fallback' }
}
case 'nomatch' {
  'a': { notify { 'never': } }
}
notify { "pkg=${pkg} other=${other}": }
