notify { 'call 1: alias wins': message => docker_plugin_enable_flags({ 'force_remove' => true, 'plugin_alias' => 'mine', 'plugin_name' => 'vieux/sshfs' }) }
notify { 'call 2: name only': message => docker_plugin_enable_flags({ 'plugin_name' => 'vieux/sshfs:latest' }) }
notify { 'call 3: undef alias': message => docker_plugin_enable_flags({ 'force_remove' => false, 'plugin_alias' => undef, 'plugin_name' => 'x' }) }
notify { 'call 4: empty': message => docker_plugin_enable_flags({}) }
