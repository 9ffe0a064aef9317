notify { 'call 1: megabytes': message => memcached_max_memory(2048) }
notify { 'call 2: percent': message => [memcached_max_memory('50%'), memcached_max_memory(undef)] }
