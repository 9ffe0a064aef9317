notify { 'call 1: hash': message => postgresql_password('alice', 'secret') }
notify { 'call 2: unicode': message => postgresql_password('bob', 'pässwörd') }
