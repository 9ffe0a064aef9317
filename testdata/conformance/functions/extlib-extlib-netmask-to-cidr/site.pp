notify { 'call 1: /24': message => extlib::netmask_to_cidr('255.255.255.0') }
notify { 'call 2: extremes': message => [extlib::netmask_to_cidr('0.0.0.0'), extlib::netmask_to_cidr('255.255.255.255')] }
notify { 'call 3: /20': message => extlib::netmask_to_cidr('255.255.240.0') }
notify { 'call 4: IPv6': message => extlib::netmask_to_cidr('ffff:ffff:ffff:ffff::') }
