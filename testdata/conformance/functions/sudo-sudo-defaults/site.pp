notify { 'call 1: typical pairs': message => sudo::defaults(
  ['env_reset', undef],
  ['mailto', { 'value' => 'root@example.com' }],
  ['secure_path', { 'value' => '/usr/local/sbin:/usr/bin' }],
  ['passwd_tries', { 'value' => 3 }],
  ['env_keep', { 'operator' => '+=', 'value' => 'SSH_AUTH_SOCK' }],
  ['lecture', { 'list' => ':alice', 'value' => 'never' }],
) }
notify { 'call 2: no pairs': message => sudo::defaults() }
notify { 'call 3: pairs from a hash': message => sudo::defaults(*{ 'requiretty' => {}, 'umask' => { 'value' => '0022' } }.map |$k, $v| { [$k, $v] }) }
