# Sample calls of difference; each result is a notify message.
notify { 'call 1: difference([\'a\', \'b\', \'c\'], [\'b\', \'c\', \'d\'])':
  message => difference(['a', 'b', 'c'], ['b', 'c', 'd']),
}
notify { 'call 2: difference([1, 2, 2, 3], [3])':
  message => difference([1, 2, 2, 3], [3]),
}
notify { 'call 3: difference([], [\'a\'])':
  message => difference([], ['a']),
}
notify { 'call 4: difference([\'a\', \'b\'], [])':
  message => difference(['a', 'b'], []),
}
