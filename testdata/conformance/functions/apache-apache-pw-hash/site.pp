notify { 'call 1: ascii': message => apache::pw_hash('secret') }
notify { 'call 2: unicode': message => apache::pw_hash('pässwörd ✓') }
notify { 'call 3: one char': message => apache::pw_hash('x') }
