notify { 'call 1: doc example': message => to_hash_settings({ 'a' => 1, 'b' => 2 }) }
notify { 'call 2: with id': message => to_hash_settings({ 'a' => 1, 'b' => 2 }, 'foo') }
notify { 'call 3: empty': message => to_hash_settings({}, 'x') }
notify { 'call 4: nested values': message => to_hash_settings({ 'Date/date.timezone' => 'UTC', 'PHP/memory' => ['1', { 'x' => undef }] }, 'php.ini') }
