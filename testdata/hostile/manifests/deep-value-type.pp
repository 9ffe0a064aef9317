# expect: 1 MaxValueDepth
# A value nested a million deep through <<, then type-checked: type inference
# and formatting are recursive walks.
$x = 1000000.reduce([]) |$m, $i| { [] << $m }
$y = Integer($x)
