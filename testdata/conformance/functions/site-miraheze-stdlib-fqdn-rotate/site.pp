notify { 'call 1: array': message => fqdn_rotate(['a', 'b', 'c', 'd', 'e']) }
notify { 'call 2: string': message => fqdn_rotate('abcdef') }
notify { 'call 3: seeded': message => fqdn_rotate([1, 2, 3, 4], 'seed') }
notify { 'call 4: empty': message => fqdn_rotate([]) }
