$a = 'x'
'x' in $a
notice($a)
