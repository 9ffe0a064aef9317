notify { 'call 1: inside': message => extlib::is_in_cidr('10.0.0.11', '10.0.0.0/24') }
notify { 'call 2: outside': message => extlib::is_in_cidr('10.0.1.11', '10.0.0.0/24') }
notify { 'call 3: IPv6': message => [extlib::is_in_cidr('2001:db8::5', '2001:db8::/32'), extlib::is_in_cidr('2001:db9::5', '2001:db8::/32')] }
notify { 'call 4: mixed families': message => extlib::is_in_cidr('10.0.0.1', '2001:db8::/32') }
