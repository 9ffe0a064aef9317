# Sample calls of bool2num; each result is a notify message.
notify { 'call 1: bool2num(true)':
  message => bool2num(true),
}
notify { 'call 2: bool2num(false)':
  message => bool2num(false),
}
notify { 'call 3: bool2num(\'yes\')':
  message => bool2num('yes'),
}
notify { 'call 4: bool2num(\'false\')':
  message => bool2num('false'),
}
notify { 'call 5: bool2num(\'\')':
  message => bool2num(''),
}
