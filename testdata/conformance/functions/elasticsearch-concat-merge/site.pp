notify { 'call 1: doc example': message => concat_merge({ 'a' => [1] }, { 'a' => [2] }) }
notify { 'call 2: non-array value, rightmost wins': message => concat_merge({ 'a' => 1, 'b' => [1] }, { 'a' => 2, 'b' => 'x' }, { 'c' => [3] }) }
notify { 'call 3: empty string skipped': message => concat_merge('', { 'x' => ['y'] }) }
notify { 'call 4: nested hashes replaced': message => concat_merge({ 'h' => { 'a' => 1 } }, { 'h' => { 'b' => 2 } }) }
