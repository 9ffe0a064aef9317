define app::instance(String $user) {
  app::config { "${title}-cfg": owner => $user }
}
define app::config(String $owner) {
  file { "/etc/${title}": ensure => file, owner => $owner }
}
app::instance { 'billing': user => 'bill' }
