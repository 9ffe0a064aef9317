# Sample calls of stdlib::start_with; each result is a notify message.
notify { 'call 1: stdlib::start_with(\'foobar\', \'foo\')':
  message => stdlib::start_with('foobar', 'foo'),
}
notify { 'call 2: stdlib::start_with(\'foobar\', \'bar\')':
  message => stdlib::start_with('foobar', 'bar'),
}
notify { 'call 3: stdlib::start_with(\'foObar\', [\'bar\', \'baz\', \'foO\'])':
  message => stdlib::start_with('foObar', ['bar', 'baz', 'foO']),
}
notify { 'call 4: stdlib::start_with(\'\', \'x\')':
  message => stdlib::start_with('', 'x'),
}
