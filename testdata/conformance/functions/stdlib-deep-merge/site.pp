# Sample calls of deep_merge; each result is a notify message.
notify { 'call 1: deep_merge({\'one\' => 1, \'two\' => 2, \'three\' => {\'four\' => 4}}, {\'two\' => \'dos\', \'three\' => {\'five\' => 5}})':
  message => deep_merge({'one' => 1, 'two' => 2, 'three' => {'four' => 4}}, {'two' => 'dos', 'three' => {'five' => 5}}),
}
notify { 'call 2: deep_merge({\'a\' => [1]}, {\'a\' => [2]})':
  message => deep_merge({'a' => [1]}, {'a' => [2]}),
}
notify { 'call 3: deep_merge({\'a\' => 1}, undef, \'\', {\'b\' => 2})':
  message => deep_merge({'a' => 1}, undef, '', {'b' => 2}),
}
notify { 'call 4: deep_merge({}, {})':
  message => deep_merge({}, {}),
}
