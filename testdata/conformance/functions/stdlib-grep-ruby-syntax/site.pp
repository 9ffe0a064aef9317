# Ruby-only regexp syntax in grep's pattern; each result is a notify message.
notify { 'call 1: \Z anchor':
  message => grep(['0123ABCD', "0123ABCD\n", '0123ABCDx', 'xyz'], '\A(0x)?[0-9a-fA-F]{8}\Z'),
}
notify { 'call 2: \h class':
  message => grep(['beef', 'BEEF', 'bee!'], '^\h+$'),
}
notify { 'call 3: lookahead':
  message => grep(['foobar', 'foobaz'], 'foo(?=bar)'),
}
