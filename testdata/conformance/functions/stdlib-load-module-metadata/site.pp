# Sample calls of load_module_metadata; each result is a notify message.
notify { 'call 1: load_module_metadata(\'stdlib\')[\'name\']':
  message => load_module_metadata('stdlib')['name'],
}
notify { 'call 2: load_module_metadata(\'stdlib\')[\'requirements\']':
  message => load_module_metadata('stdlib')['requirements'],
}
notify { 'call 3: load_module_metadata(\'concat\')[\'dependencies\']':
  message => load_module_metadata('concat')['dependencies'],
}
