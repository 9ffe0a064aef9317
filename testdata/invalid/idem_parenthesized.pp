$a = 1
(1 + 2)
notice($a)
