class base {
  $pkg = "nginx"
}
class child inherits base {
  notify { "pkg=${pkg} q=${base::pkg} c=${child::pkg}": }
}
include child
