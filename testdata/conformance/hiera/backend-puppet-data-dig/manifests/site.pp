notify { 'whole': message => lookup('app::db') }
notify { 'host': message => lookup('app::db.host') }
notify { 'port': message => lookup('app::db.ports.1') }
notify { 'missing': message => lookup('app::other', undef, undef, 'default') }
