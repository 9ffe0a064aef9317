$h = { 'a' => 1, 'b' => [1,2], 'c' => 'x y', 'd' => undef, 'e' => true }
notify { 'x': message => to_json($h) }
notify { 'y': message => to_yaml($h) }
notify { 'j': message => to_json_pretty($h) }
notify { 'z': message => join(keys($h), ',') }
notify { 'w': message => String($h) }
notify { 'v': message => "${h['b']} ${h}" }
