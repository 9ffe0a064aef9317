# Sample calls of stdlib::to_toml; each result is a notify message.
notify { 'call 1: stdlib::to_toml({\'key\' => \'value\', \'n\' => 1, \'f\' => 1.5, \'b\' => true})':
  message => stdlib::to_toml({'key' => 'value', 'n' => 1, 'f' => 1.5, 'b' => true}),
}
notify { 'call 2: stdlib::to_toml({\'section\' => {\'a\' => [1, 2], \'sub\' => {\'x\' => \'y\'}}})':
  message => stdlib::to_toml({'section' => {'a' => [1, 2], 'sub' => {'x' => 'y'}}}),
}
notify { 'call 3: stdlib::to_toml({})':
  message => stdlib::to_toml({}),
}
notify { 'call 4: stdlib::to_toml({\'servers\' => [{\'name\' => \'a\'}, {\'name\' => \'b\'}]})':
  message => stdlib::to_toml({'servers' => [{'name' => 'a'}, {'name' => 'b'}]}),
}
