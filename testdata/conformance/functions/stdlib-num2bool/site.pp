# Sample calls of num2bool; each result is a notify message.
notify { 'call 1: num2bool(1)':
  message => num2bool(1),
}
notify { 'call 2: num2bool(0)':
  message => num2bool(0),
}
notify { 'call 3: num2bool(\'-1\')':
  message => num2bool('-1'),
}
notify { 'call 4: num2bool(\'2.5\')':
  message => num2bool('2.5'),
}
notify { 'call 5: num2bool(0.4)':
  message => num2bool(0.4),
}
