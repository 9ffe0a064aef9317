notify { 'call 1: true': message => apache::bool2httpd(true) }
notify { 'call 2: false': message => apache::bool2httpd(false) }
notify { 'call 3: undef': message => apache::bool2httpd(undef) }
notify { 'call 4: strings': message => [apache::bool2httpd('TRUE'), apache::bool2httpd('False'), apache::bool2httpd('maybe')] }
notify { 'call 5: number': message => apache::bool2httpd(1) }
