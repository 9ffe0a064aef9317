notify { 'a': message => => 'x' }
