# Sample calls of parsehocon; each result is a notify message.
notify { 'call 1: parsehocon(\'{"a": 1, "b": [1, 2]}\')':
  message => parsehocon('{"a": 1, "b": [1, 2]}'),
}
notify { 'call 2: parsehocon(\'key = value\')':
  message => parsehocon('key = value'),
}
notify { 'call 3: parsehocon(\'x { y = 1 }\')':
  message => parsehocon('x { y = 1 }'),
}
