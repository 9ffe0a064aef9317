notify { 'call 1: full': message => docker_stack_flags({ 'bundle_file' => 'b.dab', 'compose_files' => ['a.yml', 'b.yml'], 'prune' => true, 'with_registry_auth' => true, 'resolve_image' => 'always' }) }
notify { 'call 2: one compose file': message => docker_stack_flags({ 'compose_files' => 'c.yml' }) }
notify { 'call 3: empty': message => docker_stack_flags({}) }
