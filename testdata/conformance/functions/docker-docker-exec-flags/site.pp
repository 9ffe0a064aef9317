notify { 'call 1: all flags': message => docker_exec_flags({ 'detach' => true, 'interactive' => true, 'tty' => true, 'env' => ['FOO=bar', 'X=1'] }) }
notify { 'call 2: empty hash': message => docker_exec_flags({}) }
notify { 'call 3: false flags, empty env': message => docker_exec_flags({ 'detach' => false, 'tty' => false, 'env' => [] }) }
notify { 'call 4: undef env': message => docker_exec_flags({ 'interactive' => true, 'env' => undef }) }
