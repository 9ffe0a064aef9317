$u = lookup('users', Hash, 'hash')
notify { "u=${u}": }
