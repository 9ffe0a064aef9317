# Sample calls of stdlib::extname; each result is a notify message.
notify { 'call 1: stdlib::extname(\'test.rb\')':
  message => stdlib::extname('test.rb'),
}
notify { 'call 2: stdlib::extname(\'a/b/d/test.rb\')':
  message => stdlib::extname('a/b/d/test.rb'),
}
notify { 'call 3: stdlib::extname(\'test\')':
  message => stdlib::extname('test'),
}
notify { 'call 4: stdlib::extname(\'.profile\')':
  message => stdlib::extname('.profile'),
}
notify { 'call 5: stdlib::extname(\'archive.tar.gz\')':
  message => stdlib::extname('archive.tar.gz'),
}
