# Sample calls of pw_hash; each result is a notify message.
notify { 'call 1: pw_hash(\'password\', \'sha-512\', \'saltsalt\')':
  message => pw_hash('password', 'sha-512', 'saltsalt'),
}
notify { 'call 2: pw_hash(\'password\', \'sha-256\', \'salt\')':
  message => pw_hash('password', 'sha-256', 'salt'),
}
notify { 'call 3: pw_hash(\'password\', \'md5\', \'salt\')':
  message => pw_hash('password', 'md5', 'salt'),
}
notify { 'call 4: pw_hash(\'\', \'sha-512\', \'x\')':
  message => pw_hash('', 'sha-512', 'x'),
}
notify { 'call 5: pw_hash(undef, \'sha-512\', \'x\')':
  message => pw_hash(undef, 'sha-512', 'x'),
}
