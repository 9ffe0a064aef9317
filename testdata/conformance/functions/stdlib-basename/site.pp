# Sample calls of basename; each result is a notify message.
notify { 'call 1: basename(\'/path/to/a/file.ext\')':
  message => basename('/path/to/a/file.ext'),
}
notify { 'call 2: basename(\'relative_file.ext\')':
  message => basename('relative_file.ext'),
}
notify { 'call 3: basename(\'/path/to/a/file.ext\', \'.ext\')':
  message => basename('/path/to/a/file.ext', '.ext'),
}
notify { 'call 4: basename(\'/\')':
  message => basename('/'),
}
notify { 'call 5: basename(\'/a/b/\')':
  message => basename('/a/b/'),
}
