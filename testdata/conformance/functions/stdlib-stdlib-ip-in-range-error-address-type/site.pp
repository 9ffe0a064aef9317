notify { 'array address': message => stdlib::ip_in_range(['10.1.1.1'], '10.0.0.0/8') }
