$x = 'abc'(1)
