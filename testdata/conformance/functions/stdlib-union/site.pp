# Sample calls of union; each result is a notify message.
notify { 'call 1: union([\'a\', \'b\', \'c\'], [\'b\', \'c\', \'d\'])':
  message => union(['a', 'b', 'c'], ['b', 'c', 'd']),
}
notify { 'call 2: union([\'a\'], [\'b\'], [\'c\', \'a\'])':
  message => union(['a'], ['b'], ['c', 'a']),
}
notify { 'call 3: union([], [])':
  message => union([], []),
}
notify { 'call 4: union([1, 1], [2])':
  message => union([1, 1], [2]),
}
