# Sample calls of stdlib::powershell_escape; each result is a notify message.
notify { 'call 1: stdlib::powershell_escape(\'foo bar\')':
  message => stdlib::powershell_escape('foo bar'),
}
notify { 'call 2: stdlib::powershell_escape(\'$env:PATH `tick` "q"\')':
  message => stdlib::powershell_escape('$env:PATH `tick` "q"'),
}
notify { 'call 3: stdlib::powershell_escape(\'\')':
  message => stdlib::powershell_escape(''),
}
notify { 'call 4: stdlib::powershell_escape("it\'s")':
  message => stdlib::powershell_escape("it's"),
}
