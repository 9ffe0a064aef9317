$data = { 'groups' => { 'a' => { 'members' => ['x', 'y'] }, 'b' => { 'members' => ['y', 'z'] }, 'c' => { 'members' => [] } } }
notify { 'call 1: groups': message => unique_users($data, ['a', 'b', 'nope']) }
notify { 'call 2: none': message => unique_users($data, ['c']) }
