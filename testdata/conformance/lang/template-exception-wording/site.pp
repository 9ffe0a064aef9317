$zero = 0
notify { 'x': message => template('m/divide.erb') }
