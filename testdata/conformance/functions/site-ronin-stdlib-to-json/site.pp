# Sample calls of to_json; each result is a notify message.
notify { 'call 1: to_json({\'a\' => [1, 2], \'b\' => {\'c\' => true, \'d\' => undef}})':
  message => to_json({'a' => [1, 2], 'b' => {'c' => true, 'd' => undef}}),
}
notify { 'call 2: to_json([])':
  message => to_json([]),
}
notify { 'call 3: to_json(\'héllo "q"\')':
  message => to_json('héllo "q"'),
}
