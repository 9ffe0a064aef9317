notify { 'call 1: IPv4': message => extlib::ip_to_reverse('192.168.1.10') }
notify { 'call 2: IPv6': message => extlib::ip_to_reverse('2001:db8::1') }
notify { 'call 3: zeros': message => extlib::ip_to_reverse('0.0.0.0') }
