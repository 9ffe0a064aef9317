# Sample calls of stdlib::to_python; each result is a notify message.
notify { 'call 1: stdlib::to_python({\'a\' => [1, 2.5], \'b\' => {\'c\' => true, \'d\' => undef}})':
  message => stdlib::to_python({'a' => [1, 2.5], 'b' => {'c' => true, 'd' => undef}}),
}
notify { 'call 2: stdlib::to_python(false)':
  message => stdlib::to_python(false),
}
notify { 'call 3: stdlib::to_python(\'it\\\'s "q"\')':
  message => stdlib::to_python('it\'s "q"'),
}
notify { 'call 4: stdlib::to_python([])':
  message => stdlib::to_python([]),
}
notify { 'call 5: stdlib::to_python(undef)':
  message => stdlib::to_python(undef),
}
