# Sample calls of stdlib::nested_values; each result is a notify message.
notify { 'call 1: stdlib::nested_values({})':
  message => stdlib::nested_values({}),
}
notify { 'call 2: stdlib::nested_values({\'a\' => 1, \'b\' => {\'c\' => 2, \'d\' => {\'e\' => 3}}})':
  message => stdlib::nested_values({'a' => 1, 'b' => {'c' => 2, 'd' => {'e' => 3}}}),
}
notify { 'call 3: stdlib::nested_values({\'a\' => [1, 2], \'b\' => undef})':
  message => stdlib::nested_values({'a' => [1, 2], 'b' => undef}),
}
