notify { 'call 1: typical': message => docker_swarm_join_flags({ 'join' => true, 'advertise_addr' => '192.168.1.2', 'listen_addr' => '192.168.1.2', 'token' => 'SWMTKN-1-abc' }) }
notify { 'call 2: empty': message => docker_swarm_join_flags({}) }
notify { 'call 3: join false': message => docker_swarm_join_flags({ 'join' => false, 'token' => undef }) }
