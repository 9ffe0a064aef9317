$options = {
  'Host *.example.com' => { 'ForwardAgent' => 'yes', 'BatchMode' => 'yes' },
  'ForwardAgent' => 'no',
  'BatchMode' => 'no',
  'StrictHostKeyChecking' => 'no',
}
notify { 'call 1: doc example': message => sshclient_options_to_augeas_ssh_config($options, ['StrictHostKeyChecking', 'NoneField'], { 'target' => '/etc/ssh/ssh_config' }) }
notify { 'call 2: nothing absent, no extras': message => sshclient_options_to_augeas_ssh_config({ 'SendEnv' => ['LANG', 'LC_*'] }, [], {}) }
notify { 'call 3: empty options': message => sshclient_options_to_augeas_ssh_config({}, ['X'], { 'target' => '/tmp/ssh_config' }) }
