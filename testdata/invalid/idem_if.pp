$a = 1
if $a { 1 }
notice($a)
