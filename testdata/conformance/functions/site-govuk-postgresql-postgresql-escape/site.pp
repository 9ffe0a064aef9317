notify { 'call 1: plain': message => postgresql_escape('secret') }
notify { 'call 2: dollars': message => [postgresql_escape('pa$$word'), postgresql_escape('ends$')] }
