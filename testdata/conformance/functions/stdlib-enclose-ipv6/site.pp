# Sample calls of enclose_ipv6; each result is a notify message.
notify { 'call 1: enclose_ipv6(\'fd00::11\')':
  message => enclose_ipv6('fd00::11'),
}
notify { 'call 2: enclose_ipv6(\'10.0.0.1\')':
  message => enclose_ipv6('10.0.0.1'),
}
notify { 'call 3: enclose_ipv6([\'fd00::1\', \'[::1]\', \'1.2.3.4\', \'*\'])':
  message => enclose_ipv6(['fd00::1', '[::1]', '1.2.3.4', '*']),
}
notify { 'call 4: enclose_ipv6(\'::1\')':
  message => enclose_ipv6('::1'),
}
