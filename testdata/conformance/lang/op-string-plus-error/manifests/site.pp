$s = 'abc' + 'def'
notify { $s: }
