class c(String $a, String $r = "${b}/x", String $b = 'B') {}
include c
