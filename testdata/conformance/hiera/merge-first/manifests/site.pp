$p = lookup('packages')
$u = lookup('users', Hash, 'first')
notify { "p=${p}": }
notify { "u=${u}": }
