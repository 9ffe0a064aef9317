notify { 'call 1: all flags': message => docker_exec_flags({ 'detach' => true, 'interactive' => true, 'tty' => true, 'env' => ['FOO=bar'] }) }
notify { 'call 2: empty hash': message => docker_exec_flags({}) }
notify { 'call 3: false flags': message => docker_exec_flags({ 'detach' => false, 'tty' => false }) }
