# Sample calls of delete; each result is a notify message.
notify { 'call 1: delete([\'a\', \'b\', \'c\', \'b\'], \'b\')':
  message => delete(['a', 'b', 'c', 'b'], 'b'),
}
notify { 'call 2: delete({\'a\' => 1, \'b\' => 2, \'c\' => 3}, [\'b\', \'c\'])':
  message => delete({'a' => 1, 'b' => 2, 'c' => 3}, ['b', 'c']),
}
notify { 'call 3: delete(\'abracadabra\', \'bra\')':
  message => delete('abracadabra', 'bra'),
}
notify { 'call 4: delete([\'ab\', \'b\'], \'b\')':
  message => delete(['ab', 'b'], 'b'),
}
notify { 'call 5: delete([], \'x\')':
  message => delete([], 'x'),
}
