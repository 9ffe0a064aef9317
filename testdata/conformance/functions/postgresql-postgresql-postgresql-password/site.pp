notify { 'call 1: default hash (md5 from postgresql::default)': message => postgresql::postgresql_password('foo', 'bar') }
notify { 'call 2: explicit md5, integer user': message => postgresql::postgresql_password(42, 'bar', false, 'md5') }
notify { 'call 3: scram with salt': message => postgresql::postgresql_password('foo', 'bar', false, 'scram-sha-256', 'salt1234') }
notify { 'call 4: scram salted by username': message => postgresql::postgresql_password('foo', Sensitive('bär'), false, 'scram-sha-256') }
notify { 'call 5: already hashed, sensitive out': message => postgresql::postgresql_password('foo', 'md596948aad3fcae80c08a35c9b5958cd89', true).unwrap }
