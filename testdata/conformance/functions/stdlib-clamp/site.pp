# Sample calls of clamp; each result is a notify message.
notify { 'call 1: clamp(\'24\', 1, 19)':
  message => clamp('24', 1, 19),
}
notify { 'call 2: clamp(4, 3, \'99\')':
  message => clamp(4, 3, '99'),
}
notify { 'call 3: clamp([4, 3, \'99\'])':
  message => clamp([4, 3, '99']),
}
notify { 'call 4: clamp(-5, 0, 5)':
  message => clamp(-5, 0, 5),
}
notify { 'call 5: clamp(1.5, 2, 3)':
  message => clamp(1.5, 2, 3),
}
