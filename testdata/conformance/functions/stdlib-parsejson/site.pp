# Sample calls of parsejson; each result is a notify message.
notify { 'call 1: parsejson(\'{"a": 1, "b": [true, null, "x"]}\')':
  message => parsejson('{"a": 1, "b": [true, null, "x"]}'),
}
notify { 'call 2: parsejson(\'[1, 2.5, "héllo"]\')':
  message => parsejson('[1, 2.5, "héllo"]'),
}
notify { 'call 3: parsejson(\'not json\', {\'default\' => 1})':
  message => parsejson('not json', {'default' => 1}),
}
notify { 'call 4: parsejson(\'"just a string"\')':
  message => parsejson('"just a string"'),
}
