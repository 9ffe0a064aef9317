# Sample calls of seeded_rand; each result is a notify message.
notify { 'call 1: seeded_rand(100, \'seed\')':
  message => seeded_rand(100, 'seed'),
}
notify { 'call 2: seeded_rand(1000, \'another\')':
  message => seeded_rand(1000, 'another'),
}
notify { 'call 3: seeded_rand(1, \'x\')':
  message => seeded_rand(1, 'x'),
}
