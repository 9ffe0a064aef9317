notify { 'a': message => lookup('a::b') }
notify { 'plain': message => lookup('plain') }
