# Sample calls of stdlib::to_ruby; each result is a notify message.
notify { 'call 1: stdlib::to_ruby({\'a\' => [1, 2.5], \'b\' => {\'c\' => true, \'d\' => undef}})':
  message => stdlib::to_ruby({'a' => [1, 2.5], 'b' => {'c' => true, 'd' => undef}}),
}
notify { 'call 2: stdlib::to_ruby(false)':
  message => stdlib::to_ruby(false),
}
notify { 'call 3: stdlib::to_ruby(\'it\\\'s "q"\')':
  message => stdlib::to_ruby('it\'s "q"'),
}
notify { 'call 4: stdlib::to_ruby([])':
  message => stdlib::to_ruby([]),
}
notify { 'call 5: stdlib::to_ruby(undef)':
  message => stdlib::to_ruby(undef),
}
