# Sample calls of parsepson; each result is a notify message.
notify { 'call 1: parsepson(\'{"a": 1, "b": [true, null]}\')':
  message => parsepson('{"a": 1, "b": [true, null]}'),
}
notify { 'call 2: parsepson(\'[1, 2.5, "three"]\')':
  message => parsepson('[1, 2.5, "three"]'),
}
notify { 'call 3: parsepson(\'not pson\', {\'default\' => 1})':
  message => parsepson('not pson', {'default' => 1}),
}
