notify { 'call 1: /24': message => extlib::cidr_to_network('192.168.1.10/24') }
notify { 'call 2: /0 and /32': message => [extlib::cidr_to_network('10.9.8.7/0'), extlib::cidr_to_network('10.1.2.3/32')] }
notify { 'call 3: odd prefix': message => extlib::cidr_to_network('172.16.5.4/20') }
notify { 'call 4: IPv6': message => extlib::cidr_to_network('2001:db8:1:2::1/48') }
