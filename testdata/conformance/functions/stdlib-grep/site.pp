# Sample calls of grep; each result is a notify message.
notify { 'call 1: grep([\'aaa\', \'bbb\', \'ccc\', \'aaaddd\'], \'aaa\')':
  message => grep(['aaa', 'bbb', 'ccc', 'aaaddd'], 'aaa'),
}
notify { 'call 2: grep([\'aaa\', \'bbb\', \'ccc\', \'aaaddd\'], \'^a+d\')':
  message => grep(['aaa', 'bbb', 'ccc', 'aaaddd'], '^a+d'),
}
notify { 'call 3: grep([], \'x\')':
  message => grep([], 'x'),
}
notify { 'call 4: grep([\'Abc\', \'abc\'], \'(?i)^a\')':
  message => grep(['Abc', 'abc'], '(?i)^a'),
}
