# Sample calls of stdlib::fqdn_rand_string; each result is a notify message.
notify { 'call 1: stdlib::fqdn_rand_string(10)':
  message => stdlib::fqdn_rand_string(10),
}
notify { 'call 2: stdlib::fqdn_rand_string(10, \'ab\')':
  message => stdlib::fqdn_rand_string(10, 'ab'),
}
notify { 'call 3: stdlib::fqdn_rand_string(8, undef, \'seed\')':
  message => stdlib::fqdn_rand_string(8, undef, 'seed'),
}
notify { 'call 4: stdlib::fqdn_rand_string(16, \'xyz\', \'other seed\', 3)':
  message => stdlib::fqdn_rand_string(16, 'xyz', 'other seed', 3),
}
