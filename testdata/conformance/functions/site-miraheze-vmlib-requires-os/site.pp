requires_os('debian >= bullseye')
notify { 'call 1: satisfied': message => 'ok' }
