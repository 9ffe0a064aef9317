define demo::secret(Sensitive[String] $value, $plain = 'x', Sensitive $dflt = Sensitive('d')) {
  file { "/tmp/sensitive-${title}": content => $value }
  notify { "n-${title}": message => $value }
  notify { "d-${title}": message => $dflt }
  notify { "u-${title}": message => $value.unwrap }
}
demo::secret { 'one': value => Sensitive('s3cret') }
define demo::any($value) {
  file { "/tmp/sensitive-any-${title}": content => $value }
}
demo::any { 'two': value => Sensitive('hidden') }
class demo::cls(Sensitive[String] $pw) {
  notify { 'cls': message => $pw }
  demo::secret { 'three': value => $pw }
}
class { 'demo::cls': pw => Sensitive('clspw') }
