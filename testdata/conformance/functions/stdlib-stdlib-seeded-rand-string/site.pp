# Sample calls of stdlib::seeded_rand_string; each result is a notify message.
notify { 'call 1: stdlib::seeded_rand_string(8, \'seed\')':
  message => stdlib::seeded_rand_string(8, 'seed'),
}
notify { 'call 2: stdlib::seeded_rand_string(12, \'seed\', \'abc\')':
  message => stdlib::seeded_rand_string(12, 'seed', 'abc'),
}
notify { 'call 3: stdlib::seeded_rand_string(1, \'\')':
  message => stdlib::seeded_rand_string(1, ''),
}
notify { 'call 4: stdlib::seeded_rand_string(20, \'web01\')':
  message => stdlib::seeded_rand_string(20, 'web01'),
}
