class { 'accounts':
  group_list => {
    'admins' => { 'gid' => 3000 },
  },
  user_list  => {
    'bob'   => { 'uid' => 3001, 'gid' => 3000, 'groups' => ['admins'], 'managehome' => true },
    'carol' => { 'ensure' => 'absent' },
  },
}
