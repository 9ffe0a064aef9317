$z = 0
$x = 10 / $z
notify { "x=${x}": }
