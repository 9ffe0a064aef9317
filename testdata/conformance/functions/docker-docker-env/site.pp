notify { 'call 1: env pairs': message => docker::env(['FOO=bar', 'BAZ=qux quux']) }
notify { 'call 2: empty': message => docker::env([]) }
notify { 'call 3: nested and unicode': message => docker::env(['A=ü', ['B=1'], { 'c' => 2 }]) }
