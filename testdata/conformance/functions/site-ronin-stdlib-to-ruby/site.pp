# Sample calls of to_ruby; each result is a notify message.
notify { 'call 1: to_ruby({\'a\' => [1, 2.5], \'b\' => {\'c\' => true, \'d\' => undef}})':
  message => to_ruby({'a' => [1, 2.5], 'b' => {'c' => true, 'd' => undef}}),
}
notify { 'call 2: to_ruby(false)':
  message => to_ruby(false),
}
notify { 'call 3: to_ruby(undef)':
  message => to_ruby(undef),
}
