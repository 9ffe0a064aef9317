# Sample calls of stdlib::fqdn_rotate; each result is a notify message.
notify { 'call 1: stdlib::fqdn_rotate([\'a\', \'b\', \'c\', \'d\'])':
  message => stdlib::fqdn_rotate(['a', 'b', 'c', 'd']),
}
notify { 'call 2: stdlib::fqdn_rotate(\'abcdef\')':
  message => stdlib::fqdn_rotate('abcdef'),
}
notify { 'call 3: stdlib::fqdn_rotate([1, 2, 3], \'seed\')':
  message => stdlib::fqdn_rotate([1, 2, 3], 'seed'),
}
notify { 'call 4: stdlib::fqdn_rotate([])':
  message => stdlib::fqdn_rotate([]),
}
notify { 'call 5: stdlib::fqdn_rotate(\'\')':
  message => stdlib::fqdn_rotate(''),
}
