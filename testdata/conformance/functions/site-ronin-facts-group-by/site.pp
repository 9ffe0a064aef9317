notify { 'call 1: array': message => facts::group_by([1, 2, 3, 4, 5]) |$x| { $x % 2 } }
notify { 'call 2: hash': message => facts::group_by({ 'a' => 1, 'b' => 2, 'c' => 1 }) |$pair| { $pair[1] } }
notify { 'call 3: strings': message => facts::group_by(['apple', 'avocado', 'banana']) |$s| { $s[0] } }
