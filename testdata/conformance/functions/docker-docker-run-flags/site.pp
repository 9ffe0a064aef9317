notify { 'call 1: typical container':
  message => docker_run_flags({
    'username' => 'app', 'hostname' => 'web 1', 'restart' => 'always', 'net' => 'bridge',
    'memory_limit' => '512m', 'cpuset' => ['0', '1'], 'privileged' => false, 'tty' => true,
    'env' => ['FOO=bar baz', 'X=1'], 'ports' => ['80:80', '443:443'], 'volumes' => '/srv:/srv',
    'labels' => [], 'dns' => undef, 'extra_params' => ['--rm'], 'osfamily' => 'Debian',
  }),
}
notify { 'call 2: net list, health check, windows join':
  message => docker_run_flags({
    'net' => ['a', 'b'], 'health_check_cmd' => 'curl -f http://localhost', 'health_check_interval' => 30,
    'read_only' => true, 'disable_network' => true, 'hostentries' => ['db:10.0.0.2'],
    'extra_params' => [], 'osfamily' => 'windows',
  }),
}
notify { 'call 3: minimal':
  message => docker_run_flags({ 'extra_params' => [] }),
}
notify { 'call 4: quotes and unicode in env':
  message => docker_run_flags({ 'env' => ["MSG=it's ünïcode", 'EMPTY='], 'links' => 'db:db', 'extra_params' => ['--init'] }),
}
