# Sample calls of type_of; each result is a notify message.
notify { 'call 1: String(type_of(1))':
  message => String(type_of(1)),
}
notify { 'call 2: String(type_of([1, \'a\']))':
  message => String(type_of([1, 'a'])),
}
notify { 'call 3: String(type_of(undef))':
  message => String(type_of(undef)),
}
