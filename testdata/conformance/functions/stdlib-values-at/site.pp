# Sample calls of values_at; each result is a notify message.
notify { 'call 1: values_at([\'a\', \'b\', \'c\'], 1)':
  message => values_at(['a', 'b', 'c'], 1),
}
notify { 'call 2: values_at([\'a\', \'b\', \'c\', \'d\', \'e\'], [\'0-2\'])':
  message => values_at(['a', 'b', 'c', 'd', 'e'], ['0-2']),
}
notify { 'call 3: values_at([\'a\', \'b\', \'c\', \'d\', \'e\'], [0, \'2\', \'3-4\'])':
  message => values_at(['a', 'b', 'c', 'd', 'e'], [0, '2', '3-4']),
}
