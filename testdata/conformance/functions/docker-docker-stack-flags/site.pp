notify { 'call 1: compose files': message => docker_stack_flags({ 'compose_files' => ['/tmp/a.yml', '/tmp/b.yml'], 'resolve_image' => 'always', 'prune' => true, 'with_registry_auth' => true }) }
notify { 'call 2: bundle file': message => docker_stack_flags({ 'bundle_file' => '/tmp/x.dab', 'prune' => false }) }
notify { 'call 3: empty': message => docker_stack_flags({}) }
