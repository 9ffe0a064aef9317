# Sample calls of to_bytes; each result is a notify message.
notify { 'call 1: to_bytes(\'4 kB\')':
  message => to_bytes('4 kB'),
}
notify { 'call 2: to_bytes(\'1.5 MB\')':
  message => to_bytes('1.5 MB'),
}
notify { 'call 3: to_bytes(\'1G\')':
  message => to_bytes('1G'),
}
notify { 'call 4: to_bytes(1024)':
  message => to_bytes(1024),
}
notify { 'call 5: to_bytes(\'2T\')':
  message => to_bytes('2T'),
}
notify { 'call 6: to_bytes(\'100\')':
  message => to_bytes('100'),
}
