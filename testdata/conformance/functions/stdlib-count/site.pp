# Sample calls of count; each result is a notify message.
notify { 'call 1: count([\'a\', \'b\', undef, \'\'])':
  message => count(['a', 'b', undef, '']),
}
notify { 'call 2: count([\'a\', \'b\', \'a\'], \'a\')':
  message => count(['a', 'b', 'a'], 'a'),
}
notify { 'call 3: count([])':
  message => count([]),
}
notify { 'call 4: count([1, 1, 2], 1)':
  message => count([1, 1, 2], 1),
}
