# Sample calls of delete_regex; each result is a notify message.
notify { 'call 1: delete_regex([\'a\', \'b\', \'c\', \'b\'], \'b\')':
  message => delete_regex(['a', 'b', 'c', 'b'], 'b'),
}
notify { 'call 2: delete_regex([\'abf\', \'ab\', \'ac\'], \'^ab.*\')':
  message => delete_regex(['abf', 'ab', 'ac'], '^ab.*'),
}
notify { 'call 3: delete_regex({\'a\' => 1, \'b\' => 2, \'c\' => 3}, [\'b\', \'c\'])':
  message => delete_regex({'a' => 1, 'b' => 2, 'c' => 3}, ['b', 'c']),
}
notify { 'call 4: delete_regex([\'abc\', \'b\'], \'b\')':
  message => delete_regex(['abc', 'b'], 'b'),
}
