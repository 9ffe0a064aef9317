# Sample calls of any2array; each result is a notify message.
notify { 'call 1: any2array(\'a\')':
  message => any2array('a'),
}
notify { 'call 2: any2array([1, 2])':
  message => any2array([1, 2]),
}
notify { 'call 3: any2array({\'a\' => 1, \'b\' => [2]})':
  message => any2array({'a' => 1, 'b' => [2]}),
}
notify { 'call 4: any2array()':
  message => any2array(),
}
notify { 'call 5: any2array(undef)':
  message => any2array(undef),
}
notify { 'call 6: any2array(\'a\', \'b\', 3)':
  message => any2array('a', 'b', 3),
}
