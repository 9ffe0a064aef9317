notify { 'call 1: md5 hash': message => postgresql::prepend_sql_password('md596948aad3fcae80c08a35c9b5958cd89') }
notify { 'call 2: empty': message => postgresql::prepend_sql_password('') }
notify { 'call 3: from postgresql_password': message => postgresql::prepend_sql_password(postgresql::postgresql_password('u', 'p', false, 'md5')) }
