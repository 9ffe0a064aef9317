class c(Array[String] $a, String[1] $b = 'ok') {}
class { 'c': a => 'x' }
