# Sample calls of dirname; each result is a notify message.
notify { 'call 1: dirname(\'/path/to/a/file.ext\')':
  message => dirname('/path/to/a/file.ext'),
}
notify { 'call 2: dirname(\'relative_file.ext\')':
  message => dirname('relative_file.ext'),
}
notify { 'call 3: dirname(\'/\')':
  message => dirname('/'),
}
notify { 'call 4: dirname(\'/a/b/\')':
  message => dirname('/a/b/'),
}
notify { 'call 5: dirname(\'a/b\')':
  message => dirname('a/b'),
}
