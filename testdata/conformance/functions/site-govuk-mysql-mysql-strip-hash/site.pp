notify { 'call 1: nested': message => mysql_strip_hash({ 'a' => '', 'b' => 'x', 'c' => { 'd' => '', 'e' => 1 } }) }
notify { 'call 2: nothing blank': message => mysql_strip_hash({ 'k' => 'v' }) }
