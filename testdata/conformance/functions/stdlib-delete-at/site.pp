# Sample calls of delete_at; each result is a notify message.
notify { 'call 1: delete_at([\'a\', \'b\', \'c\'], 1)':
  message => delete_at(['a', 'b', 'c'], 1),
}
notify { 'call 2: delete_at([\'a\', \'b\', \'c\'], 0)':
  message => delete_at(['a', 'b', 'c'], 0),
}
notify { 'call 3: delete_at([\'a\'], \'0\')':
  message => delete_at(['a'], '0'),
}
