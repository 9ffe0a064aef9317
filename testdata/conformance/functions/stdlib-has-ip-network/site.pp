# Sample calls of has_ip_network; each result is a notify message.
notify { 'call 1: has_ip_network(\'10.0.0.0\')':
  message => has_ip_network('10.0.0.0'),
}
notify { 'call 2: has_ip_network(\'192.168.0.0\')':
  message => has_ip_network('192.168.0.0'),
}
