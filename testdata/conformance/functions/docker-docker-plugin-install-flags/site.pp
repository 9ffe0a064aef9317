notify { 'call 1: everything': message => docker_plugin_install_flags({
  'plugin_alias' => 'sshfs', 'disable_on_install' => true, 'disable_content_trust' => true,
  'grant_all_permissions' => true, 'plugin_name' => 'vieux/sshfs', 'settings' => ['DEBUG=1', 'sshkey.source=/tmp/k'],
}) }
notify { 'call 2: name only': message => docker_plugin_install_flags({ 'plugin_name' => 'vieux/sshfs' }) }
notify { 'call 3: settings not an array': message => docker_plugin_install_flags({ 'settings' => 'DEBUG=1', 'grant_all_permissions' => false }) }
notify { 'call 4: empty': message => docker_plugin_install_flags({}) }
