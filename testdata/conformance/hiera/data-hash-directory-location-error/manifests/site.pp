notify { 'a': message => lookup('a::b', undef, undef, 'dflt') }
