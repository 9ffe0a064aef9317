# Sample calls of convert_base; each result is a notify message.
notify { 'call 1: convert_base(5, 2)':
  message => convert_base(5, 2),
}
notify { 'call 2: convert_base(\'254\', \'16\')':
  message => convert_base('254', '16'),
}
notify { 'call 3: convert_base(\'0\', 36)':
  message => convert_base('0', 36),
}
notify { 'call 4: convert_base(123456789, 36)':
  message => convert_base(123456789, 36),
}
