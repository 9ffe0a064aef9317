notify { 'call 1: true': message => bool2httpd(true) }
notify { 'call 2: false': message => bool2httpd(false) }
notify { 'call 3: undef': message => bool2httpd(undef) }
notify { 'call 4: strings': message => [bool2httpd('TRUE'), bool2httpd('False'), bool2httpd('maybe')] }
notify { 'call 5: number': message => bool2httpd(1) }
