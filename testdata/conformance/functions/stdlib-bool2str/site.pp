# Sample calls of bool2str; each result is a notify message.
notify { 'call 1: bool2str(true)':
  message => bool2str(true),
}
notify { 'call 2: bool2str(false)':
  message => bool2str(false),
}
notify { 'call 3: bool2str(true, \'yes\', \'no\')':
  message => bool2str(true, 'yes', 'no'),
}
notify { 'call 4: bool2str(false, \'t\', \'f\')':
  message => bool2str(false, 't', 'f'),
}
notify { 'call 5: bool2str(true, \'\', \'-\')':
  message => bool2str(true, '', '-'),
}
