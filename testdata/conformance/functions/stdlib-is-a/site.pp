# Sample calls of is_a; each result is a notify message.
notify { 'call 1: is_a(1, Integer)':
  message => is_a(1, Integer),
}
notify { 'call 2: is_a(\'foo\', Integer)':
  message => is_a('foo', Integer),
}
notify { 'call 3: is_a([1, \'a\'], Array[Variant[Integer, String]])':
  message => is_a([1, 'a'], Array[Variant[Integer, String]]),
}
notify { 'call 4: is_a(undef, Optional[String])':
  message => is_a(undef, Optional[String]),
}
notify { 'call 5: is_a({a => 1}, Hash[String, Integer])':
  message => is_a({a => 1}, Hash[String, Integer]),
}
