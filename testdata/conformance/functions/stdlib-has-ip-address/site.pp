# Sample calls of has_ip_address; each result is a notify message.
notify { 'call 1: has_ip_address(\'10.0.0.11\')':
  message => has_ip_address('10.0.0.11'),
}
notify { 'call 2: has_ip_address(\'127.0.0.1\')':
  message => has_ip_address('127.0.0.1'),
}
notify { 'call 3: has_ip_address(\'10.9.9.9\')':
  message => has_ip_address('10.9.9.9'),
}
