define d() {}
define d() {}
d { "x": }
