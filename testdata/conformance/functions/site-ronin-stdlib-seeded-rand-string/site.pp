# Sample calls of seeded_rand_string; each result is a notify message.
notify { 'call 1: seeded_rand_string(8, \'seed\')':
  message => seeded_rand_string(8, 'seed'),
}
notify { 'call 2: seeded_rand_string(12, \'seed\', \'abc\')':
  message => seeded_rand_string(12, 'seed', 'abc'),
}
notify { 'call 3: seeded_rand_string(1, \'\')':
  message => seeded_rand_string(1, ''),
}
