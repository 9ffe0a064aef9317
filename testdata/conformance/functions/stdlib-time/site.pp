# Sample calls of time; each result is a notify message.
notify { 'call 1: time() =~ Integer':
  message => time() =~ Integer,
}
notify { 'call 2: time() > 1700000000':
  message => time() > 1700000000,
}
notify { 'call 3: time(\'UTC\') > 1700000000':
  message => time('UTC') > 1700000000,
}
