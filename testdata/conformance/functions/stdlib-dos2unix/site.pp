# Sample calls of dos2unix; each result is a notify message.
notify { 'call 1: dos2unix("a\\r\\nb\\r\\n")':
  message => dos2unix("a\r\nb\r\n"),
}
notify { 'call 2: dos2unix("no change\\n")':
  message => dos2unix("no change\n"),
}
notify { 'call 3: dos2unix(\'\')':
  message => dos2unix(''),
}
notify { 'call 4: dos2unix("mixed\\r\\nline\\nend\\r")':
  message => dos2unix("mixed\r\nline\nend\r"),
}
