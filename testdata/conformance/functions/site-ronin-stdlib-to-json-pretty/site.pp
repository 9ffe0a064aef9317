# Sample calls of to_json_pretty; each result is a notify message.
notify { 'call 1: to_json_pretty({\'a\' => [1, 2], \'b\' => {\'c\' => true, \'d\' => undef}})':
  message => to_json_pretty({'a' => [1, 2], 'b' => {'c' => true, 'd' => undef}}),
}
notify { 'call 2: to_json_pretty({\'a\' => undef, \'b\' => [undef, 1]}, true)':
  message => to_json_pretty({'a' => undef, 'b' => [undef, 1]}, true),
}
notify { 'call 3: to_json_pretty([])':
  message => to_json_pretty([]),
}
