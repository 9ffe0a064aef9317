notify { 'call 1: ascii': message => apache_pw_hash('secret') }
notify { 'call 2: unicode': message => apache_pw_hash('pässwörd ✓') }
notify { 'call 3: one char': message => apache_pw_hash('x') }
