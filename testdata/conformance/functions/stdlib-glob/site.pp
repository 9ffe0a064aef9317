# Sample calls of glob; each result is a notify message.
notify { 'call 1: glob(\'/nonexistent-dir-for-marionette/*\')':
  message => glob('/nonexistent-dir-for-marionette/*'),
}
notify { 'call 2: glob([\'/nonexistent-a/*.conf\', \'/nonexistent-b/*\'])':
  message => glob(['/nonexistent-a/*.conf', '/nonexistent-b/*']),
}
notify { 'call 3: glob(\'/\')':
  message => glob('/'),
}
