# Sample calls of stdlib::end_with; each result is a notify message.
notify { 'call 1: stdlib::end_with(\'foobar\', \'bar\')':
  message => stdlib::end_with('foobar', 'bar'),
}
notify { 'call 2: stdlib::end_with(\'foobar\', \'foo\')':
  message => stdlib::end_with('foobar', 'foo'),
}
notify { 'call 3: stdlib::end_with(\'foobar\', [\'x\', \'ar\'])':
  message => stdlib::end_with('foobar', ['x', 'ar']),
}
notify { 'call 4: stdlib::end_with(\'\', \'x\')':
  message => stdlib::end_with('', 'x'),
}
