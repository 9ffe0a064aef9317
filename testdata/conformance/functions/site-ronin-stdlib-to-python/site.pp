# Sample calls of to_python; each result is a notify message.
notify { 'call 1: to_python({\'a\' => [1, 2.5], \'b\' => {\'c\' => true, \'d\' => undef}})':
  message => to_python({'a' => [1, 2.5], 'b' => {'c' => true, 'd' => undef}}),
}
notify { 'call 2: to_python(false)':
  message => to_python(false),
}
notify { 'call 3: to_python(undef)':
  message => to_python(undef),
}
