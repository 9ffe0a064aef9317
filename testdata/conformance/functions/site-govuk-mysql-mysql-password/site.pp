notify { 'call 1: clear': message => mysql_password('secret') }
notify { 'call 2: already hashed': message => mysql_password('*14E65567ABDB5135D0CFD9A70B3032C179A49EE7') }
notify { 'call 3: empty': message => mysql_password('') }
