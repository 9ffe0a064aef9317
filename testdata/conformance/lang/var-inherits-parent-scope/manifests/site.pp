class base {
  $pkg = 'nginx'
}
class derived inherits base {
  notify { "pkg=${pkg}": }
}
include derived
