notify { 'string argument': message => ensure_prefix('abc', 'p.') }
