$one = extlib::random_password(1)
$long = extlib::random_password(64)
notify { 'call 1: length 1': message => [length($one), $one =~ /\A[a-km-zA-HJ-NP-Z2-9]\z/] }
notify { 'call 2: length 64': message => [length($long), $long =~ /\A[a-km-zA-HJ-NP-Z2-9]{64}\z/] }
notify { 'call 3: type': message => String(type(extlib::random_password(8), 'generalized')) }
