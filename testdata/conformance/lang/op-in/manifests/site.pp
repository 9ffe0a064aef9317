$r1 = 'ell' in 'Hello'
$r2 = 'ELL' in 'Hello'
$r3 = 'b' in ['a', 'b']
$r4 = 'B' in ['a', 'b']
$r5 = 'k2' in {'k1' => 1, 'k2' => 2}
$r6 = 1 in {'k1' => 1}
$r7 = /^x/ in ['ab', 'xy']
$r8 = Integer in ['a', 3]
$r9 = 'z' in ['a', 'b']
notify { "r1=${r1} r2=${r2} r3=${r3} r4=${r4} r5=${r5} r6=${r6} r7=${r7} r8=${r8} r9=${r9}": }
