# Sample calls of pick_default; each result is a notify message.
notify { 'call 1: pick_default(undef, \'\', \'first\', \'second\')':
  message => pick_default(undef, '', 'first', 'second'),
}
notify { 'call 2: pick_default(undef, \'\')':
  message => pick_default(undef, ''),
}
notify { 'call 3: pick_default(undef)':
  message => pick_default(undef),
}
notify { 'call 4: pick_default(\'\', undef, [\'a\'])':
  message => pick_default('', undef, ['a']),
}
