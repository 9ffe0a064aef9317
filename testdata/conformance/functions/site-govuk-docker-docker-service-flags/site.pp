notify { 'call 1: full': message => docker_service_flags({ 'detach' => true, 'service_name' => 'web', 'image' => 'nginx:1', 'env' => ['A=1', 'B=2'], 'label' => ['x=y'], 'publish' => '80:80', 'replicas' => '3', 'tty' => true, 'user' => 'www', 'workdir' => '/srv', 'extra_params' => ['--limit-cpu 1'], 'host_socket' => 'tcp://h:2376', 'registry_mirror' => 'https://m', 'command' => 'run it' }) }
notify { 'call 2: minimal': message => docker_service_flags({ 'image' => 'busybox', 'extra_params' => [] }) }
notify { 'call 3: empty': message => docker_service_flags({ 'extra_params' => [] }) }
