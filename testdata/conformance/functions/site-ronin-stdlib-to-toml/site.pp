# Sample calls of to_toml; each result is a notify message.
notify { 'call 1: to_toml({\'key\' => \'value\', \'n\' => 1})':
  message => to_toml({'key' => 'value', 'n' => 1}),
}
notify { 'call 2: to_toml({\'section\' => {\'a\' => [1, 2]}})':
  message => to_toml({'section' => {'a' => [1, 2]}}),
}
notify { 'call 3: to_toml({})':
  message => to_toml({}),
}
