notify { 'x': message => os_version('debian sid') }
