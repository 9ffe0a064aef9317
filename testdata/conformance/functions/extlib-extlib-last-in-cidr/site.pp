notify { 'call 1: /24': message => extlib::last_in_cidr('192.168.1.10/24') }
notify { 'call 2: /32 and /0': message => [extlib::last_in_cidr('10.1.2.3/32'), extlib::last_in_cidr('10.1.2.3/0')] }
notify { 'call 3: /20': message => extlib::last_in_cidr('172.16.5.4/20') }
notify { 'call 4: IPv6': message => extlib::last_in_cidr('2001:db8::1/64') }
