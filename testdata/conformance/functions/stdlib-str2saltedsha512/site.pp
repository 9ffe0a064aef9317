# Sample calls of str2saltedsha512; each result is a notify message.
notify { 'call 1: str2saltedsha512(\'password\') =~ /\\A[0-9a-f]{136}\\z/':
  message => str2saltedsha512('password') =~ /\A[0-9a-f]{136}\z/,
}
notify { 'call 2: str2saltedsha512(\'\') =~ /\\A[0-9a-f]{136}\\z/':
  message => str2saltedsha512('') =~ /\A[0-9a-f]{136}\z/,
}
notify { 'call 3: length(str2saltedsha512(\'password\'))':
  message => length(str2saltedsha512('password')),
}
