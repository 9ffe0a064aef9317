notify { 'x': message => lookup('app::x') }
