$x = 'abc
notice($x)
