# Sample calls of delete_values; each result is a notify message.
notify { 'call 1: delete_values({\'a\' => \'A\', \'b\' => \'B\', \'c\' => \'C\', \'B\' => \'D\'}, \'B\')':
  message => delete_values({'a' => 'A', 'b' => 'B', 'c' => 'C', 'B' => 'D'}, 'B'),
}
notify { 'call 2: delete_values({\'a\' => 1, \'b\' => [1]}, 1)':
  message => delete_values({'a' => 1, 'b' => [1]}, 1),
}
notify { 'call 3: delete_values({}, \'x\')':
  message => delete_values({}, 'x'),
}
