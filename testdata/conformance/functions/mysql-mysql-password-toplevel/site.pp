notify { 'call 1: plain': message => mysql_password('secret') }
notify { 'call 2: empty': message => mysql_password('') }
notify { 'call 3: sensitive out, unwrapped': message => mysql_password('secret', true).unwrap }
