# Sample calls of delete_undef_values; each result is a notify message.
notify { 'call 1: delete_undef_values({\'a\' => \'A\', \'b\' => \'\', \'c\' => undef, \'d\' => false})':
  message => delete_undef_values({'a' => 'A', 'b' => '', 'c' => undef, 'd' => false}),
}
notify { 'call 2: delete_undef_values([\'A\', \'\', undef, false])':
  message => delete_undef_values(['A', '', undef, false]),
}
notify { 'call 3: delete_undef_values({})':
  message => delete_undef_values({}),
}
notify { 'call 4: delete_undef_values([[undef], undef])':
  message => delete_undef_values([[undef], undef]),
}
