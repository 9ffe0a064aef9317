$l = 1 << 4
$r = 256 >> 2
$neg = -16 >> 2
$arr = [1, 2] << 3
$nested = [1] << [2, 3]
notify { "l=${l} r=${r} neg=${neg} arr=${arr} nested=${nested}": }
