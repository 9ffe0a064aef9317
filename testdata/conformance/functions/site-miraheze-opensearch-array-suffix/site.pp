notify { 'call 1: suffix': message => array_suffix(['a', 'b', 'c'], 'p') }
notify { 'call 2: numbers': message => array_suffix([1, 2.5, true], ':9200') }
notify { 'call 3: no suffix': message => array_suffix(['x', 3]) }
notify { 'call 4: empty': message => array_suffix([], 'p') }
