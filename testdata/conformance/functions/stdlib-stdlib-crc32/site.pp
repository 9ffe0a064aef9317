# Sample calls of stdlib::crc32; each result is a notify message.
notify { 'call 1: stdlib::crc32(\'\')':
  message => stdlib::crc32(''),
}
notify { 'call 2: stdlib::crc32(\'hello world\')':
  message => stdlib::crc32('hello world'),
}
notify { 'call 3: stdlib::crc32(\'héllo\')':
  message => stdlib::crc32('héllo'),
}
notify { 'call 4: stdlib::crc32(42)':
  message => stdlib::crc32(42),
}
