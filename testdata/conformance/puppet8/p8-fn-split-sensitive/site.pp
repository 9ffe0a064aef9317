$parts = split(Sensitive('a,b,c'), ',')
notify { 'type': message => String(type($parts, generalized)) }
notify { 'unwrapped': message => $parts.unwrap }
notify { 'regexp': message => split(Sensitive('x1y22z'), /\d+/).unwrap }
file { '/tmp/p8-secret': content => split(Sensitive('k=v'), '=').unwrap.join(':') }
