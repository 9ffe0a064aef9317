# Sample calls of stdlib::str2resource; each result is a notify message.
user { 'alice': ensure => present }
file { '/tmp/x y': ensure => file }
notify { 'call 1: String(stdlib::str2resource(\'User[alice]\'))':
  message => String(stdlib::str2resource('User[alice]')),
}
notify { 'call 2: String(stdlib::str2resource(\'File[/tmp/x y]\'))':
  message => String(stdlib::str2resource('File[/tmp/x y]')),
}
notify { 'call 3: stdlib::str2resource(\'User[alice]\') =~ Type[User]':
  message => stdlib::str2resource('User[alice]') =~ Type[User],
}
