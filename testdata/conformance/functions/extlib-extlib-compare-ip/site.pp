notify { 'call 1: less': message => extlib::compare_ip('10.0.0.2', '10.0.0.10') }
notify { 'call 2: equal': message => extlib::compare_ip('192.168.0.1', '192.168.0.1') }
notify { 'call 3: greater IPv6': message => extlib::compare_ip('2001:db8::10', '2001:db8::9') }
notify { 'call 4: sort with it': message => ['10.0.0.10', '9.255.0.1', '10.0.0.9'].sort |$a, $b| { extlib::compare_ip($a, $b) } }
