# Sample calls of reverse; each result is a notify message.
notify { 'call 1: reverse([\'a\', \'b\', \'c\'])':
  message => reverse(['a', 'b', 'c']),
}
notify { 'call 2: reverse(\'abc\')':
  message => reverse('abc'),
}
notify { 'call 3: reverse(\'héllo\')':
  message => reverse('héllo'),
}
notify { 'call 4: reverse([])':
  message => reverse([]),
}
