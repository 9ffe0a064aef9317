$options = {
  'Match User www-data' => { 'PasswordAuthentication' => 'yes', 'X11Forwarding' => 'no' },
  'Match Group bamboo' => { 'ForcedCommand' => '/bin/echo hello world' },
  'X11Forwarding' => 'yes',
  'DebianBanner' => '/etc/banner.net',
  'AllowGroups' => ['sshgroups', 'admins'],
}
notify { 'call 1: doc example': message => sshserver_options_to_augeas_sshd_config($options, ['DebianBanner', 'NoneField'], { 'target' => '/etc/ssh/sshd_config' }) }
notify { 'call 2: nothing absent, no extras': message => sshserver_options_to_augeas_sshd_config({ 'Port' => 22 }, [], {}) }
notify { 'call 3: empty options': message => sshserver_options_to_augeas_sshd_config({}, [], { 'target' => '/tmp/sshd_config' }) }
