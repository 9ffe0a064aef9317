notify { 'call 1: pairs': message => maptoreg({ 'time.windows.com' => '0x9', 'pool.ntp.org' => 1 }) }
notify { 'call 2: empty': message => maptoreg({}) }
