# Sample calls of join_keys_to_values; each result is a notify message.
notify { 'call 1: join_keys_to_values({\'a\' => 1, \'b\' => 2}, \' is \')':
  message => join_keys_to_values({'a' => 1, 'b' => 2}, ' is '),
}
notify { 'call 2: join_keys_to_values({\'a\' => 1, \'b\' => [2, 3]}, \'=\')':
  message => join_keys_to_values({'a' => 1, 'b' => [2, 3]}, '='),
}
notify { 'call 3: join_keys_to_values({}, \':\')':
  message => join_keys_to_values({}, ':'),
}
notify { 'call 4: join_keys_to_values({\'a\' => undef}, \'=\')':
  message => join_keys_to_values({'a' => undef}, '='),
}
