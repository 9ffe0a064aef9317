# Sample calls of uriescape; each result is a notify message.
notify { 'call 1: uriescape(\'foo bar\')':
  message => uriescape('foo bar'),
}
notify { 'call 2: uriescape(\'http://example.com/path?a=b&c=d é\')':
  message => uriescape('http://example.com/path?a=b&c=d é'),
}
notify { 'call 3: uriescape([\'a b\', \'c/d\'])':
  message => uriescape(['a b', 'c/d']),
}
notify { 'call 4: uriescape(\'\')':
  message => uriescape(''),
}
