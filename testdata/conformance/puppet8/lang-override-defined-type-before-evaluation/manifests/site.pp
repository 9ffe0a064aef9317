# An override of an existing defined-type instance applies at once, so the
# instance, evaluated later, sees the overridden parameter.
define thing(String $p = 'default') {
  notify { "p=${p}": }
}
thing { 'x': }
Thing['x'] { p => 'overridden' }
