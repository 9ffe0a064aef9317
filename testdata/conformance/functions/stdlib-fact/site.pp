# Sample calls of fact; each result is a notify message.
notify { 'call 1: fact(\'os.family\')':
  message => fact('os.family'),
}
notify { 'call 2: fact(\'networking.ip\')':
  message => fact('networking.ip'),
}
notify { 'call 3: fact(\'processors.count\')':
  message => fact('processors.count'),
}
notify { 'call 4: fact(\'does_not_exist\')':
  message => fact('does_not_exist'),
}
notify { 'call 5: fact(\'os\')':
  message => fact('os'),
}
