class base ($greeting = 'hello') {
  notify { "base says ${greeting}": }
}
class derived inherits base {
  notify { "derived sees ${greeting}": }
}
include derived
