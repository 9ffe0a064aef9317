notify { 'call 1: present with labels': message => docker_secrets_flags({ 'ensure' => 'present', 'secret_name' => 'db', 'secret_path' => '/tmp/db', 'label' => ['a=1', 'b=2'] }) }
notify { 'call 2: one label string, absent': message => docker_secrets_flags({ 'ensure' => 'absent', 'secret_name' => 'x', 'secret_path' => '/p', 'label' => 'only' }) }
notify { 'call 3: undef values': message => docker_secrets_flags({ 'ensure' => 'present', 'secret_name' => undef, 'secret_path' => undef }) }
