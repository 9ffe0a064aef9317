class c(String $a, String $b) {}
include c
