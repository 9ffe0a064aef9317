# Sample calls of deprecation; each result is a notify message.
notify { 'call 1: deprecation(\'sample_key\', \'this thing is deprecated\')':
  message => deprecation('sample_key', 'this thing is deprecated'),
}
notify { 'call 2: deprecation(\'other_key\', \'another message, €\')':
  message => deprecation('other_key', 'another message, €'),
}
