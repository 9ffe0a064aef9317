$hex = 0xFF
$oct = 0777
$dec = 1234
$flt = 3.14
$exp1 = 1.5e3
$exp2 = 2E-2
notify { "hex=${hex} oct=${oct} dec=${dec} flt=${flt} exp1=${exp1} exp2=${exp2} sum=${$hex + $oct}": }
