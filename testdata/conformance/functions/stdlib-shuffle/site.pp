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
notify { 'call 5: sort(shuffle([\'b\', \'a\', \'c\', \'d\']))':
  message => sort(shuffle(['b', 'a', 'c', 'd'])),
}
notify { 'call 6: sort(shuffle(\'hello\').split(\'\'))':
  message => sort(shuffle('hello').split('')),
}
