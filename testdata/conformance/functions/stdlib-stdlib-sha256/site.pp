# Sample calls of stdlib::sha256; each result is a notify message.
notify { 'call 1: stdlib::sha256(\'\')':
  message => stdlib::sha256(''),
}
notify { 'call 2: stdlib::sha256(\'hello world\')':
  message => stdlib::sha256('hello world'),
}
notify { 'call 3: stdlib::sha256(\'héllo\')':
  message => stdlib::sha256('héllo'),
}
