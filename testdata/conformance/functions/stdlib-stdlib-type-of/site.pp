# Sample calls of stdlib::type_of; each result is a notify message.
notify { 'call 1: String(stdlib::type_of(1))':
  message => String(stdlib::type_of(1)),
}
notify { 'call 2: String(stdlib::type_of(\'foo\'))':
  message => String(stdlib::type_of('foo')),
}
notify { 'call 3: String(stdlib::type_of([1, \'a\']))':
  message => String(stdlib::type_of([1, 'a'])),
}
notify { 'call 4: String(stdlib::type_of({a => 1}))':
  message => String(stdlib::type_of({a => 1})),
}
notify { 'call 5: String(stdlib::type_of(undef))':
  message => String(stdlib::type_of(undef)),
}
