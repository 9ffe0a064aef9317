# Sample calls of stdlib::ip_in_range; each result is a notify message.
notify { 'call 1: stdlib::ip_in_range(\'10.10.10.53\', \'10.10.10.0/24\')':
  message => stdlib::ip_in_range('10.10.10.53', '10.10.10.0/24'),
}
notify { 'call 2: stdlib::ip_in_range(\'10.10.11.53\', \'10.10.10.0/24\')':
  message => stdlib::ip_in_range('10.10.11.53', '10.10.10.0/24'),
}
notify { 'call 3: stdlib::ip_in_range(\'10.10.10.53\', [\'192.168.0.0/16\', \'10.0.0.0/8\'])':
  message => stdlib::ip_in_range('10.10.10.53', ['192.168.0.0/16', '10.0.0.0/8']),
}
notify { 'call 4: stdlib::ip_in_range(\'fd00::11\', \'fd00::/64\')':
  message => stdlib::ip_in_range('fd00::11', 'fd00::/64'),
}
