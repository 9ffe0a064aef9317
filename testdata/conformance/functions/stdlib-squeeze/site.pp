# Sample calls of squeeze; each result is a notify message.
notify { 'call 1: squeeze(\'aaabbbccc\')':
  message => squeeze('aaabbbccc'),
}
notify { 'call 2: squeeze(\'aaabbbccc\', \'a\')':
  message => squeeze('aaabbbccc', 'a'),
}
notify { 'call 3: squeeze([\'aaa\', \'bbb\'])':
  message => squeeze(['aaa', 'bbb']),
}
notify { 'call 4: squeeze([\'aaa\', \'bbcc\'], \'c\')':
  message => squeeze(['aaa', 'bbcc'], 'c'),
}
notify { 'call 5: squeeze(\'\')':
  message => squeeze(''),
}
