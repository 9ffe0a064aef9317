notify { 'call 1: plain': message => mysql::password('secret') }
notify { 'call 2: already hashed and empty': message => [mysql::password('*14E65567ABDB5135D0CFD9A70B3032C179A49EE7'), mysql::password('')] }
notify { 'call 3: sensitive in, unicode': message => mysql::password(Sensitive('pässwörd')) }
notify { 'call 4: sensitive out, unwrapped': message => mysql::password('secret', true).unwrap }
