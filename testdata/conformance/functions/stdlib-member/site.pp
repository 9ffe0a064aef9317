# Sample calls of member; each result is a notify message.
notify { 'call 1: member([\'a\', \'b\'], \'b\')':
  message => member(['a', 'b'], 'b'),
}
notify { 'call 2: member([\'a\', \'b\', \'c\'], [\'a\', \'b\'])':
  message => member(['a', 'b', 'c'], ['a', 'b']),
}
notify { 'call 3: member([\'a\', \'b\'], \'d\')':
  message => member(['a', 'b'], 'd'),
}
notify { 'call 4: member([\'a\', \'b\', \'c\'], [\'d\', \'b\'])':
  message => member(['a', 'b', 'c'], ['d', 'b']),
}
notify { 'call 5: member([], \'a\')':
  message => member([], 'a'),
}
