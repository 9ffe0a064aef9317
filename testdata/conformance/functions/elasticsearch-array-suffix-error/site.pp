notify { 'not an array': message => array_suffix('abc', 'p') }
