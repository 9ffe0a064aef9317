notify { 'call 1: nested': message => deep_implode({ 'top' => { 'sub' => [1] }, 'top.sub' => [2] }) }
notify { 'call 2: deeper': message => deep_implode({ 'a' => { 'b' => { 'c' => 1, 'd' => 'x' } }, 'e' => true }) }
notify { 'call 3: empty': message => deep_implode({}) }
