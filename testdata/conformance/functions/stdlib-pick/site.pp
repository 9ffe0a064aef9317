# Sample calls of pick; each result is a notify message.
notify { 'call 1: pick(undef, \'\', \'first\', \'second\')':
  message => pick(undef, '', 'first', 'second'),
}
notify { 'call 2: pick([], \'x\')':
  message => pick([], 'x'),
}
notify { 'call 3: pick(false, \'x\')':
  message => pick(false, 'x'),
}
notify { 'call 4: pick(undef, {\'a\' => 1})':
  message => pick(undef, {'a' => 1}),
}
