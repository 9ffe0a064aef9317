notify { 'x': message => file('m/nope', 'nomodule/x', 'm') }
