$data = { 'users' => { 'ann' => { 'ensure' => 'present' }, 'bob' => { 'ensure' => 'absent' }, 'cy' => { 'ensure' => 'present' } }, 'groups' => { 'all-users' => { 'gid' => 700, 'members' => ['old'] } } }
notify { 'call 1: members': message => add_all_users($data) }
notify { 'call 2: input unchanged': message => $data['groups'] }
