notify { 'call 1: create with labels': message => docker_secrets_flags({ 'ensure' => 'present', 'secret_name' => 'db_pw', 'secret_path' => '/tmp/pw', 'label' => ['a=1', 'b=2'] }) }
notify { 'call 2: absent': message => docker_secrets_flags({ 'ensure' => 'absent', 'secret_name' => 'db_pw' }) }
notify { 'call 3: single label': message => docker_secrets_flags({ 'label' => 'env=prod' }) }
notify { 'call 4: empty': message => docker_secrets_flags({}) }
