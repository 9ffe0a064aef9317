# Sample calls of intersection; each result is a notify message.
notify { 'call 1: intersection([\'a\', \'b\', \'c\'], [\'b\', \'c\', \'d\'])':
  message => intersection(['a', 'b', 'c'], ['b', 'c', 'd']),
}
notify { 'call 2: intersection([\'a\', \'b\', \'c\'], [1, 2, 3, 4])':
  message => intersection(['a', 'b', 'c'], [1, 2, 3, 4]),
}
notify { 'call 3: intersection([1, 1, 2], [1, 2, 2])':
  message => intersection([1, 1, 2], [1, 2, 2]),
}
notify { 'call 4: intersection([], [])':
  message => intersection([], []),
}
