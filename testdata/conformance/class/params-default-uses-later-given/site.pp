class c(String $r = "${b}/x", String $b) {}
class {'c': b => 'B'}
notify{$c::r:}
