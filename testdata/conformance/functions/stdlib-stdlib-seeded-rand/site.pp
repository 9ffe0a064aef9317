# Sample calls of stdlib::seeded_rand; each result is a notify message.
notify { 'call 1: stdlib::seeded_rand(100, \'seed\')':
  message => stdlib::seeded_rand(100, 'seed'),
}
notify { 'call 2: stdlib::seeded_rand(1000, \'another\')':
  message => stdlib::seeded_rand(1000, 'another'),
}
notify { 'call 3: stdlib::seeded_rand(1, \'x\')':
  message => stdlib::seeded_rand(1, 'x'),
}
notify { 'call 4: stdlib::seeded_rand(2147483647, \'big\')':
  message => stdlib::seeded_rand(2147483647, 'big'),
}
