# Sample calls of shuffle; each result is a notify message.
notify { 'call 1: shuffle(\'\')':
  message => shuffle(''),
}
notify { 'call 2: shuffle(\'a\')':
  message => shuffle('a'),
}
notify { 'call 3: shuffle([1])':
  message => shuffle([1]),
}
notify { 'call 4: shuffle([])':
  message => shuffle([]),
}
