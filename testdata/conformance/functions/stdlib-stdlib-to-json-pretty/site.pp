# Sample calls of stdlib::to_json_pretty; each result is a notify message.
notify { 'call 1: stdlib::to_json_pretty({\'a\' => [1, 2], \'b\' => {\'c\' => true, \'d\' => undef}})':
  message => stdlib::to_json_pretty({'a' => [1, 2], 'b' => {'c' => true, 'd' => undef}}),
}
notify { 'call 2: stdlib::to_json_pretty({\'a\' => undef, \'b\' => [undef, 1]}, true)':
  message => stdlib::to_json_pretty({'a' => undef, 'b' => [undef, 1]}, true),
}
notify { 'call 3: stdlib::to_json_pretty([])':
  message => stdlib::to_json_pretty([]),
}
notify { 'call 4: stdlib::to_json_pretty({\'x\' => \'héllo\'}, false, {indent => \'    \', space_before => \' \'})':
  message => stdlib::to_json_pretty({'x' => 'héllo'}, false, {indent => '    ', space_before => ' '}),
}
notify { 'call 5: stdlib::to_json_pretty({})':
  message => stdlib::to_json_pretty({}),
}
