# Sample calls of powershell_escape; each result is a notify message.
notify { 'call 1: powershell_escape(\'foo bar\')':
  message => powershell_escape('foo bar'),
}
notify { 'call 2: powershell_escape(\'$env:PATH `tick` "q"\')':
  message => powershell_escape('$env:PATH `tick` "q"'),
}
notify { 'call 3: powershell_escape(\'\')':
  message => powershell_escape(''),
}
notify { 'call 4: powershell_escape("it\'s")':
  message => powershell_escape("it's"),
}
