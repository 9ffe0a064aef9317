class c(String $a, Integer $z = 1) {}
class {'c': b => 1, z => 'x'}
