# Sample calls of getparam; each result is a notify message.
user { 'dan': ensure => present, groups => ['a', 'b'], managehome => true }
notify { 'call 1: getparam(User[\'dan\'], \'ensure\')':
  message => getparam(User['dan'], 'ensure'),
}
notify { 'call 2: getparam(User[\'dan\'], \'groups\')':
  message => getparam(User['dan'], 'groups'),
}
notify { 'call 3: getparam(User[\'dan\'], \'managehome\')':
  message => getparam(User['dan'], 'managehome'),
}
notify { 'call 4: getparam(User[\'dan\'], \'shell\')':
  message => getparam(User['dan'], 'shell'),
}
notify { 'call 5: getparam(User[\'nobody\'], \'ensure\')':
  message => getparam(User['nobody'], 'ensure'),
}
