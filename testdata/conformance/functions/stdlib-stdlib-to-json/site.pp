# Sample calls of stdlib::to_json; each result is a notify message.
notify { 'call 1: stdlib::to_json({\'a\' => [1, 2], \'b\' => {\'c\' => true, \'d\' => undef}})':
  message => stdlib::to_json({'a' => [1, 2], 'b' => {'c' => true, 'd' => undef}}),
}
notify { 'call 2: stdlib::to_json([])':
  message => stdlib::to_json([]),
}
notify { 'call 3: stdlib::to_json(\'héllo "q" €\')':
  message => stdlib::to_json('héllo "q" €'),
}
notify { 'call 4: stdlib::to_json(1.5)':
  message => stdlib::to_json(1.5),
}
notify { 'call 5: stdlib::to_json({})':
  message => stdlib::to_json({}),
}
