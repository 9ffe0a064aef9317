# Sample calls of suffix; each result is a notify message.
notify { 'call 1: suffix([\'a\', \'b\', \'c\'], \'p\')':
  message => suffix(['a', 'b', 'c'], 'p'),
}
notify { 'call 2: suffix({\'a\' => \'b\', \'b\' => \'c\'}, \'p\')':
  message => suffix({'a' => 'b', 'b' => 'c'}, 'p'),
}
notify { 'call 3: suffix([\'a\', \'b\'])':
  message => suffix(['a', 'b']),
}
notify { 'call 4: suffix([], \'x\')':
  message => suffix([], 'x'),
}
