# Sample calls of stdlib::shell_escape; each result is a notify message.
notify { 'call 1: stdlib::shell_escape(\'foo bar\')':
  message => stdlib::shell_escape('foo bar'),
}
notify { 'call 2: stdlib::shell_escape("it\'s \\"quoted\\" \\$HOME")':
  message => stdlib::shell_escape("it's \"quoted\" \$HOME"),
}
notify { 'call 3: stdlib::shell_escape(\'\')':
  message => stdlib::shell_escape(''),
}
notify { 'call 4: stdlib::shell_escape(\'héllo\')':
  message => stdlib::shell_escape('héllo'),
}
