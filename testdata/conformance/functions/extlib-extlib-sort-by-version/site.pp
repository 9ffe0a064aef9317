notify { 'call 1: numeric order': message => extlib::sort_by_version(['10.0.0', '2.0.0', '1.10.0', '1.9.0']) }
notify { 'call 2: prereleases': message => extlib::sort_by_version(['1.0.0', '1.0.0.rc1', '1.0.0.a', '0.9']) }
notify { 'call 3: empty': message => extlib::sort_by_version([]) }
notify { 'call 4: differing lengths': message => extlib::sort_by_version(['1.0', '1', '1.0.1', '1.0.0.1']) }
