notify { 'call 1: doc example': message => deep_implode({ 'top' => { 'sub' => [1] }, 'top.sub' => [2] }) }
notify { 'call 2: elasticsearch config': message => deep_implode({ 'cluster' => { 'name' => 'es01', 'routing' => { 'allocation' => { 'enable' => 'all' } } }, 'node.name' => 'n1' }) }
notify { 'call 3: empty': message => deep_implode({}) }
notify { 'call 4: hash merge on duplicate path': message => deep_implode({ 'a' => { 'b' => { 'c' => 1 } }, 'a.b' => { 'd' => 2 } }) }
