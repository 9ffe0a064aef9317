# Sample calls of stdlib::merge; each result is a notify message.
notify { 'call 1: stdlib::merge({\'a\' => 1}, {\'b\' => 2})':
  message => stdlib::merge({'a' => 1}, {'b' => 2}),
}
notify { 'call 2: stdlib::merge({\'a\' => 1, \'b\' => 2}, {\'b\' => 3}, undef, \'\')':
  message => stdlib::merge({'a' => 1, 'b' => 2}, {'b' => 3}, undef, ''),
}
notify { 'call 3: stdlib::merge()':
  message => stdlib::merge(),
}
notify { 'call 4: stdlib::merge({\'a\' => {\'x\' => 1}}, {\'a\' => {\'y\' => 2}})':
  message => stdlib::merge({'a' => {'x' => 1}}, {'a' => {'y' => 2}}),
}
notify { 'call 5: stdlib::merge([\'a\', \'b\', \'c\', \'c\', \'d\', \'b\']) |$hsh, $v| { { $v => $hsh[$v].lest || { 0 } + 1 } }':
  message => stdlib::merge(['a', 'b', 'c', 'c', 'd', 'b']) |$hsh, $v| { { $v => $hsh[$v].lest || { 0 } + 1 } },
}
notify { 'call 6: stdlib::merge({\'x\' => 1, \'y\' => 2}) |$hsh, $k, $v| { { "new_${k}" => $v * 10 } }':
  message => stdlib::merge({'x' => 1, 'y' => 2}) |$hsh, $k, $v| { { "new_${k}" => $v * 10 } },
}
notify { 'call 7: stdlib::merge([\'a\', \'bb\', \'c\']) |$hsh, $v| { if $v =~ String[1, 1] { { $v => true } } }':
  message => stdlib::merge(['a', 'bb', 'c']) |$hsh, $v| { if $v =~ String[1, 1] { { $v => true } } },
}
