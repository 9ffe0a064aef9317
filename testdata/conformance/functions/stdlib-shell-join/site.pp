# Sample calls of shell_join; each result is a notify message.
notify { 'call 1: shell_join([\'foo bar\', \'baz\'])':
  message => shell_join(['foo bar', 'baz']),
}
notify { 'call 2: shell_join([\'echo\', "it\'s", \'$HOME\'])':
  message => shell_join(['echo', "it's", '$HOME']),
}
notify { 'call 3: shell_join([])':
  message => shell_join([]),
}
notify { 'call 4: shell_join([1, \'a\'])':
  message => shell_join([1, 'a']),
}
