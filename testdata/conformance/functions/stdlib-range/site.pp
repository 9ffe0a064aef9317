# Sample calls of range; each result is a notify message.
notify { 'call 1: range(0, 9)':
  message => range(0, 9),
}
notify { 'call 2: range(\'a\', \'e\')':
  message => range('a', 'e'),
}
notify { 'call 3: range(\'host01\', \'host05\')':
  message => range('host01', 'host05'),
}
notify { 'call 4: range(0, 10, 3)':
  message => range(0, 10, 3),
}
notify { 'call 5: range(\'0..4\')':
  message => range('0..4'),
}
