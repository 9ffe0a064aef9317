# Sample calls of fqdn_rand_string; each result is a notify message.
notify { 'call 1: fqdn_rand_string(10)':
  message => fqdn_rand_string(10),
}
notify { 'call 2: fqdn_rand_string(10, \'ab\')':
  message => fqdn_rand_string(10, 'ab'),
}
notify { 'call 3: fqdn_rand_string(8, \'\', \'seed\')':
  message => fqdn_rand_string(8, '', 'seed'),
}
notify { 'call 4: fqdn_rand_string(16, \'xyz\', \'other seed\')':
  message => fqdn_rand_string(16, 'xyz', 'other seed'),
}
