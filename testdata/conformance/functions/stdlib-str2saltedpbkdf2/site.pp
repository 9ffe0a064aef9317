# Sample calls of str2saltedpbkdf2; each result is a notify message.
notify { 'call 1: str2saltedpbkdf2(\'Pa55w0rd\', \'Using s0m3 s@lt\', 50000)':
  message => str2saltedpbkdf2('Pa55w0rd', 'Using s0m3 s@lt', 50000),
}
notify { 'call 2: str2saltedpbkdf2(\'\', \'saltsaltsalt\', 45000)':
  message => str2saltedpbkdf2('', 'saltsaltsalt', 45000),
}
