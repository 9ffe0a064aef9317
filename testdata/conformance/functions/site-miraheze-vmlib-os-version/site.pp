notify { 'call 1: codenames': message => [os_version('debian bookworm'), os_version('debian >= bullseye'), os_version('debian < bookworm'), os_version('Debian trixie')] }
notify { 'call 2: numbers': message => [os_version('debian >= 12'), os_version('debian == 12'), os_version('debian <= 11')] }
notify { 'call 3: clauses': message => [os_version('ubuntu >= trusty || debian > buster'), os_version('ubuntu xenial')] }
