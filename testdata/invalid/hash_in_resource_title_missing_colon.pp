notify { 'a': message => 'x' 'b': }
