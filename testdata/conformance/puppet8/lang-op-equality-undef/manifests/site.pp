$u = undef
$r1 = $u == undef
$r2 = $u == ''
$r3 = [] == []
$r4 = 'a' != $u
$r5 = {} == {}
notify { "r1=${r1} r2=${r2} r3=${r3} r4=${r4} r5=${r5}": }
