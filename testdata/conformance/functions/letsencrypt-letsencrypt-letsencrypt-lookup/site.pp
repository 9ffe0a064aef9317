notify { 'call 1: exact name': message => letsencrypt::letsencrypt_lookup('www.example.com') }
notify { 'call 2: wildcard fallback': message => letsencrypt::letsencrypt_lookup('mail.example.com') }
notify { 'call 3: unknown gives undef': message => [letsencrypt::letsencrypt_lookup('host.example.org')] }
