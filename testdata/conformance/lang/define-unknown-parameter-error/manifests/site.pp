define small(String $a = 'x') { }
small { 'one': b => 'y' }
