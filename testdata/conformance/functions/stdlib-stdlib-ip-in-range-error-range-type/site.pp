notify { 'hash range': message => stdlib::ip_in_range('10.1.1.1', {}) }
