$users = {
  'alice' => {'uid' => 1001},
  'bob'   => {'uid' => 1002, 'shell' => '/bin/zsh'},
}
create_resources('user', $users, {'ensure' => 'present', 'shell' => '/bin/bash'})
define appcfg(String $value) { notify { "${title}=${value}": } }
create_resources(appcfg, {'k1' => {'value' => 'v1'}})
