notify { 'a': message => { 1 => 'one', 'k' => default, 'r' => /a+b/, 'u' => [undef, 1], 'ref' => Notify['x'], 'cls' => Class['main'], 'tk' => { '__ptype' => 'x' }, 'pv' => { '__pvalue' => 'y' }, 'plain' => { 'a' => 1 } } }
notify { 'b': message => Sensitive('secret') }
notify { 'd': message => [1.5, default, Timestamp('2021-02-03T04:05:06Z')] }
notify { 'e': message => { [1, 2] => 'arr', true => 'bool' } }
notify { 'x': }
