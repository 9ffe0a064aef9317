notify { 'call 1: plain': message => postgresql_escape('secret') }
notify { 'call 2: contains $$': message => postgresql_escape('pa$$word') }
