# Sample calls of unix2dos; each result is a notify message.
notify { 'call 1: unix2dos("a\\nb\\n")':
  message => unix2dos("a\nb\n"),
}
notify { 'call 2: unix2dos("already\\r\\nok\\r\\n")':
  message => unix2dos("already\r\nok\r\n"),
}
notify { 'call 3: unix2dos(\'\')':
  message => unix2dos(''),
}
