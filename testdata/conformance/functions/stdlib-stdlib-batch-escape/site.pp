# Sample calls of stdlib::batch_escape; each result is a notify message.
notify { 'call 1: stdlib::batch_escape(\'foo bar\')':
  message => stdlib::batch_escape('foo bar'),
}
notify { 'call 2: stdlib::batch_escape(\'"quoted" %PATH%\')':
  message => stdlib::batch_escape('"quoted" %PATH%'),
}
notify { 'call 3: stdlib::batch_escape(\'\')':
  message => stdlib::batch_escape(''),
}
notify { 'call 4: stdlib::batch_escape(\'a^b\')':
  message => stdlib::batch_escape('a^b'),
}
