$r1 = with(1) |Integer $a, $b = 10| { $a + $b }
$r2 = with(1, 2) |Integer $a, $b = 10| { $a + $b }
$r3 = ['x'].map |$v, $suffix = '!'| { "${v}${suffix}" }
notify { "r1=${r1} r2=${r2} r3=${r3}": }
