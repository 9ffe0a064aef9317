# Sample calls of str2bool; each result is a notify message.
notify { 'call 1: str2bool(\'yes\')':
  message => str2bool('yes'),
}
notify { 'call 2: str2bool(\'0\')':
  message => str2bool('0'),
}
notify { 'call 3: str2bool(\'TRUE\')':
  message => str2bool('TRUE'),
}
notify { 'call 4: str2bool(\'\')':
  message => str2bool(''),
}
notify { 'call 5: str2bool(false)':
  message => str2bool(false),
}
notify { 'call 6: str2bool(\'undef\')':
  message => str2bool('undef'),
}
