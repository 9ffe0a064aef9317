notify { 'call 1: doc example': message => array_suffix(['a', 'b', 'c'], 'p') }
notify { 'call 2: no suffix': message => array_suffix(['a', 'b']) }
notify { 'call 3: numbers and unicode': message => array_suffix([1, 2.5, 'ü'], ':9200') }
notify { 'call 4: empty array': message => array_suffix([], 'x') }
