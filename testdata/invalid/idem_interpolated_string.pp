$a = 1
"x${a}"
notice($a)
