# expect: 1 MaxValueDepth
$x = 200000.reduce({}) |$m, $i| { {a => $m} }
notice($x)
