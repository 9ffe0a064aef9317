$a = 2 + 3 * 4
$b = (2 + 3) * 4
$c = 1 + 1 == 2 and 3 > 2
$d = false and false or true
$e = false and (false or true)
notify { "a=${a} b=${b} c=${c} d=${d} e=${e}": }
