# Sample calls of fqdn_rotate; each result is a notify message.
notify { 'call 1: fqdn_rotate([\'a\', \'b\', \'c\', \'d\'])':
  message => fqdn_rotate(['a', 'b', 'c', 'd']),
}
notify { 'call 2: fqdn_rotate(\'abcdef\')':
  message => fqdn_rotate('abcdef'),
}
notify { 'call 3: fqdn_rotate([1, 2, 3], \'seed\')':
  message => fqdn_rotate([1, 2, 3], 'seed'),
}
notify { 'call 4: fqdn_rotate([])':
  message => fqdn_rotate([]),
}
