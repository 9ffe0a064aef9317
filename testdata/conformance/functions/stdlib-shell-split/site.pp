# Sample calls of shell_split; each result is a notify message.
notify { 'call 1: shell_split(\'foo bar "baz qux"\')':
  message => shell_split('foo bar "baz qux"'),
}
notify { 'call 2: shell_split("a \'b c\' d\\\\ e")':
  message => shell_split("a 'b c' d\\ e"),
}
notify { 'call 3: shell_split(\'\')':
  message => shell_split(''),
}
