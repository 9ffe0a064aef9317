class c(String $a, String $b, String $r = "${b}/x") {}
include c
