notify { 'call 1: arrays': message => concat_merge({ 'a' => [1] }, { 'a' => [2], 'b' => 'x' }) }
notify { 'call 2: scalar wins': message => concat_merge({ 'a' => [1], 'c' => 1 }, { 'a' => 'y', 'c' => [2] }, { 'd' => {} }) }
notify { 'call 3: empty string': message => concat_merge('', { 'k' => ['v'] }, '') }
