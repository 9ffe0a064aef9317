$a = 'x'
true and $a
notice($a)
