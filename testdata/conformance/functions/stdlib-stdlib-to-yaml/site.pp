# Sample calls of stdlib::to_yaml; each result is a notify message.
notify { 'call 1: stdlib::to_yaml({\'a\' => [1, 2], \'b\' => {\'c\' => true, \'d\' => undef}})':
  message => stdlib::to_yaml({'a' => [1, 2], 'b' => {'c' => true, 'd' => undef}}),
}
notify { 'call 2: stdlib::to_yaml([])':
  message => stdlib::to_yaml([]),
}
notify { 'call 3: stdlib::to_yaml(\'héllo: "q"\')':
  message => stdlib::to_yaml('héllo: "q"'),
}
notify { 'call 4: stdlib::to_yaml({\'a\' => \'b\'}, {indentation => 4})':
  message => stdlib::to_yaml({'a' => 'b'}, {indentation => 4}),
}
notify { 'call 5: stdlib::to_yaml({})':
  message => stdlib::to_yaml({}),
}
