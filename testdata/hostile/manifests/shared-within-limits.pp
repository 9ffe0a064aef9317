# expect: 0
# Within every limit: compiles as Puppet does.
$a0 = [1]
$a1 = [$a0, $a0, $a0]
$a2 = [$a1, $a1, $a1]
$a3 = [$a2, $a2, $a2]
$a4 = [$a3, $a3, $a3]
$a5 = [$a4, $a4, $a4]
$a6 = [$a5, $a5, $a5]
$a7 = [$a6, $a6, $a6]
$a8 = [$a7, $a7, $a7]
notify { "x": message => flatten($a8).length }
