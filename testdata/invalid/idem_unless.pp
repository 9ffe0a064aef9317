$a = 1
unless $a { }
notice($a)
