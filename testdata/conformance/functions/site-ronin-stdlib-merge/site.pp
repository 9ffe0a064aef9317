# Sample calls of merge; each result is a notify message.
notify { 'call 1: merge({\'a\' => 1}, {\'b\' => 2})':
  message => merge({'a' => 1}, {'b' => 2}),
}
notify { 'call 2: merge({\'a\' => 1, \'b\' => 2}, {\'b\' => 3}, undef, \'\')':
  message => merge({'a' => 1, 'b' => 2}, {'b' => 3}, undef, ''),
}
notify { 'call 3: merge()':
  message => merge(),
}
notify { 'call 4: merge({\'a\' => {\'x\' => 1}}, {\'a\' => {\'y\' => 2}})':
  message => merge({'a' => {'x' => 1}}, {'a' => {'y' => 2}}),
}
