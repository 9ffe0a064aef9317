notify { 'call 1: plain': message => mongodb_password('admin', 'secret') }
notify { 'call 2: sensitive password in': message => mongodb_password('app', Sensitive('s3cr3t ü')) }
notify { 'call 3: sensitive out, unwrapped': message => mongodb_password('u', 'p', true).unwrap }
notify { 'call 4: sensitive flag false': message => mongodb_password('u', 'p', false) }
