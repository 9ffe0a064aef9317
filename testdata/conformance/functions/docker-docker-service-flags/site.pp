notify { 'call 1: README service':
  message => docker_service_flags({
    'service_name' => 'redis', 'detach' => true, 'env' => ['MY_ENV=1', 'MY_ENV2=2'], 'label' => ['l1=a'],
    'mounts' => ['type=bind,src=/tmp,dst=/tmp'], 'networks' => ['front'], 'publish' => ['6379:639'],
    'replicas' => 5, 'tty' => true, 'user' => 'nobody', 'workdir' => '/srv', 'extra_params' => ['--update-delay 1m'],
    'host_socket' => 'unix:///var/run/docker.sock', 'registry_mirror' => ['http://m1'], 'image' => 'redis:3.0.6',
    'command' => ['redis-server', '--appendonly', 'yes'],
  }),
}
notify { 'call 2: detach false, tty false, scalar publish and mirror, string command':
  message => docker_service_flags({ 'detach' => false, 'tty' => false, 'publish' => '80:80', 'registry_mirror' => 'http://m', 'command' => 'sleep 10' }),
}
notify { 'call 3: empty hash': message => docker_service_flags({}) }
