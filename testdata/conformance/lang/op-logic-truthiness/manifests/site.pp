$r1 = true and false
$r2 = true or false
$r3 = !true
$r4 = !''
$r5 = !0
$r6 = ![]
$r7 = !undef
$r8 = undef or 'x'
notify { "r1=${r1} r2=${r2} r3=${r3} r4=${r4} r5=${r5} r6=${r6} r7=${r7} r8=${r8}": }
