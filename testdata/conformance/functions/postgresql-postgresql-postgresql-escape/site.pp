notify { 'call 1: plain': message => postgresql::postgresql_escape('secret') }
notify { 'call 2: contains $$': message => postgresql::postgresql_escape('pa$$word') }
notify { 'call 3: ends in $': message => postgresql::postgresql_escape('dollar$') }
notify { 'call 4: quotes and unicode': message => postgresql::postgresql_escape("it's ü") }
