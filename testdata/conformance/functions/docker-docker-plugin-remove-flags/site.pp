notify { 'call 1: force': message => docker_plugin_remove_flags({ 'force_remove' => true, 'plugin_name' => 'vieux/sshfs' }) }
notify { 'call 2: no force': message => docker_plugin_remove_flags({ 'force_remove' => 'yes', 'plugin_name' => 'p' }) }
notify { 'call 3: empty': message => docker_plugin_remove_flags({}) }
