notify { 'call 1: nothing excluded': message => ssh::ipaddresses([], []) }
notify { 'call 2: exclude by name': message => ssh::ipaddresses(['docker0'], []) }
notify { 'call 3: exclude by regexp': message => ssh::ipaddresses([], ['^docker', 'eth1']) }
