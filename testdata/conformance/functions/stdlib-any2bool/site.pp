# Sample calls of any2bool; each result is a notify message.
notify { 'call 1: any2bool(\'yes\')':
  message => any2bool('yes'),
}
notify { 'call 2: any2bool(\'0\')':
  message => any2bool('0'),
}
notify { 'call 3: any2bool(1)':
  message => any2bool(1),
}
notify { 'call 4: any2bool(undef)':
  message => any2bool(undef),
}
notify { 'call 5: any2bool(true)':
  message => any2bool(true),
}
notify { 'call 6: any2bool(\'\')':
  message => any2bool(''),
}
notify { 'call 7: any2bool(\'undef\')':
  message => any2bool('undef'),
}
