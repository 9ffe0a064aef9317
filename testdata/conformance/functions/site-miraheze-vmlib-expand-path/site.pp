notify { 'call 1: plain': message => lookup('plain') }
notify { 'call 2: interpolated': message => lookup('greet') }
notify { 'call 3: namespaced': message => lookup('profile::web::port', undef, undef, 'not found') }
