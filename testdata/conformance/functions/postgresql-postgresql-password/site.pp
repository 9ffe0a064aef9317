notify { 'call 1: md5': message => postgresql_password('foo', 'bar') }
notify { 'call 2: scram': message => postgresql_password('foo', 'bar', false, 'scram-sha-256', 'salt') }
