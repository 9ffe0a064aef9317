# Sample calls of to_yaml; each result is a notify message.
notify { 'call 1: to_yaml({\'a\' => [1, 2], \'b\' => {\'c\' => true}})':
  message => to_yaml({'a' => [1, 2], 'b' => {'c' => true}}),
}
notify { 'call 2: to_yaml([])':
  message => to_yaml([]),
}
notify { 'call 3: to_yaml(\'plain\')':
  message => to_yaml('plain'),
}
