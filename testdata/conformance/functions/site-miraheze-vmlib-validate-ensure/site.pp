validate_ensure('present')
validate_ensure('absent')
notify { 'call 1: accepted': message => 'ok' }
