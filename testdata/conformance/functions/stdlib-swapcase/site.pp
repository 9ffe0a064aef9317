# Sample calls of swapcase; each result is a notify message.
notify { 'call 1: swapcase(\'aBcD\')':
  message => swapcase('aBcD'),
}
notify { 'call 2: swapcase([\'aB\', \'Cd\'])':
  message => swapcase(['aB', 'Cd']),
}
notify { 'call 3: swapcase(\'héllo WÖRLD\')':
  message => swapcase('héllo WÖRLD'),
}
notify { 'call 4: swapcase(\'\')':
  message => swapcase(''),
}
