[1].each |Integer *$a, $b| { }
