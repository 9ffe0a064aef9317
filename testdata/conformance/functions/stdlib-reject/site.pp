# Sample calls of reject; each result is a notify message.
notify { 'call 1: reject([\'aaa\', \'bbb\', \'ccc\', \'aaaddd\'], \'aaa\')':
  message => reject(['aaa', 'bbb', 'ccc', 'aaaddd'], 'aaa'),
}
notify { 'call 2: reject([\'aaa\', \'bbb\'], \'^b\')':
  message => reject(['aaa', 'bbb'], '^b'),
}
notify { 'call 3: reject([], \'x\')':
  message => reject([], 'x'),
}
