# Sample calls of has_interface_with; each result is a notify message.
notify { 'call 1: has_interface_with(\'eth0\')':
  message => has_interface_with('eth0'),
}
notify { 'call 2: has_interface_with(\'ipaddress\', \'10.0.0.11\')':
  message => has_interface_with('ipaddress', '10.0.0.11'),
}
notify { 'call 3: has_interface_with(\'ipaddress\', \'10.9.9.9\')':
  message => has_interface_with('ipaddress', '10.9.9.9'),
}
notify { 'call 4: has_interface_with(\'lo\')':
  message => has_interface_with('lo'),
}
