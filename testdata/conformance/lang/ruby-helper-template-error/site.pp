$x = 'hello'
notify { 'x': message => template('site/bad.erb') }
