# Sample calls of stdlib::parsehocon; each result is a notify message.
notify { 'call 1: stdlib::parsehocon(\'{"a": 1, "b": [1, 2]}\')':
  message => stdlib::parsehocon('{"a": 1, "b": [1, 2]}'),
}
notify { 'call 2: stdlib::parsehocon(\'key = value\')':
  message => stdlib::parsehocon('key = value'),
}
notify { 'call 3: stdlib::parsehocon(\'x { y = 1, z = "two" }\')':
  message => stdlib::parsehocon('x { y = 1, z = "two" }'),
}
