# Sample calls of prefix; each result is a notify message.
notify { 'call 1: prefix([\'a\', \'b\', \'c\'], \'p\')':
  message => prefix(['a', 'b', 'c'], 'p'),
}
notify { 'call 2: prefix({\'a\' => \'b\', \'b\' => \'c\'}, \'p\')':
  message => prefix({'a' => 'b', 'b' => 'c'}, 'p'),
}
notify { 'call 3: prefix([\'a\', \'b\'])':
  message => prefix(['a', 'b']),
}
notify { 'call 4: prefix([], \'x\')':
  message => prefix([], 'x'),
}
