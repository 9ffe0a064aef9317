notify { 'call 1: IPv4': message => haproxy::validate_ip_addr('10.0.0.1') }
notify { 'call 2: IPv6 and CIDR': message => [haproxy::validate_ip_addr('2001:db8::1'), haproxy::validate_ip_addr('10.0.0.0/8')] }
notify { 'call 3: invalid': message => [haproxy::validate_ip_addr('not-an-ip'), haproxy::validate_ip_addr(''), haproxy::validate_ip_addr('300.1.1.1')] }
