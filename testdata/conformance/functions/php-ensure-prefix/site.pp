notify { 'call 1: hash doc example': message => ensure_prefix({ 'a' => 1, 'b' => 2, 'p.c' => 3 }, 'p.') }
notify { 'call 2: array doc example': message => ensure_prefix(['a', 'p.b', 'c'], 'p.') }
notify { 'call 3: no prefix, numbers stringified': message => ensure_prefix([1, 'x'], undef) }
notify { 'call 4: empty and unicode': message => [ensure_prefix([], 'x'), ensure_prefix({ 'ü' => true }, 'extension=')] }
