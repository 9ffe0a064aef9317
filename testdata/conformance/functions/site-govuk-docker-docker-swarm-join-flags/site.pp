notify { 'call 1: full': message => docker_swarm_join_flags({ 'join' => true, 'advertise_addr' => '10.0.0.2', 'listen_addr' => '0.0.0.0:2377', 'token' => 'SWMTKN-1-x' }) }
notify { 'call 2: join only': message => docker_swarm_join_flags({ 'join' => true }) }
notify { 'call 3: empty': message => docker_swarm_join_flags({}) }
