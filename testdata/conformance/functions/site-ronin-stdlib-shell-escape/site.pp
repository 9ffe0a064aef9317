# Sample calls of shell_escape; each result is a notify message.
notify { 'call 1: shell_escape(\'foo bar\')':
  message => shell_escape('foo bar'),
}
notify { 'call 2: shell_escape("it\'s \\"quoted\\" \\$HOME")':
  message => shell_escape("it's \"quoted\" \$HOME"),
}
notify { 'call 3: shell_escape(\'\')':
  message => shell_escape(''),
}
notify { 'call 4: shell_escape(\'héllo\')':
  message => shell_escape('héllo'),
}
