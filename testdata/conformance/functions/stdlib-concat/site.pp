# Sample calls of concat; each result is a notify message.
notify { 'call 1: concat([\'1\', \'2\', \'3\'], [\'4\', \'5\', \'6\'])':
  message => concat(['1', '2', '3'], ['4', '5', '6']),
}
notify { 'call 2: concat([\'1\', \'2\', \'3\'], \'4\')':
  message => concat(['1', '2', '3'], '4'),
}
notify { 'call 3: concat([\'1\', \'2\', \'3\'], \'4\', [\'5\', \'6\'], [\'7\', \'8\', \'9\'])':
  message => concat(['1', '2', '3'], '4', ['5', '6'], ['7', '8', '9']),
}
notify { 'call 4: concat([], [])':
  message => concat([], []),
}
notify { 'call 5: concat([[1]], [[2, [3]]])':
  message => concat([[1]], [[2, [3]]]),
}
