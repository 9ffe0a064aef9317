notify { 'call 1: sections': message => ini({ 'main' => { 'b' => '2', 'a' => 'x', 'nested' => { 'k' => '1.5' } }, 'other' => { 'list' => ['p', 'q'] } }) }
notify { 'call 2: merge': message => ini({ 's' => { 'a' => 'one' } }, { 's' => { 'b' => 'two' }, 't' => {} }) }
