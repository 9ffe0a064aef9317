# Sample calls of regexpescape; each result is a notify message.
notify { 'call 1: regexpescape(\'[]*^&$.?+{}()|\\\\\')':
  message => regexpescape('[]*^&$.?+{}()|\\'),
}
notify { 'call 2: regexpescape([\'a.b\', \'c*\'])':
  message => regexpescape(['a.b', 'c*']),
}
notify { 'call 3: regexpescape(\'\')':
  message => regexpescape(''),
}
