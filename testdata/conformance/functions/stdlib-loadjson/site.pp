# Sample calls of loadjson; each result is a notify message.
notify { 'call 1: loadjson("${get_module_path(\'stdlib\')}/metadata.json")[\'name\']':
  message => loadjson("${get_module_path('stdlib')}/metadata.json")['name'],
}
notify { 'call 2: loadjson(\'/nonexistent/file.json\', {\'default\' => \'value\'})':
  message => loadjson('/nonexistent/file.json', {'default' => 'value'}),
}
notify { 'call 3: loadjson(\'/nonexistent/file.json\', [])':
  message => loadjson('/nonexistent/file.json', []),
}
notify { 'call 4: loadjson("${get_module_path(\'concat\')}/metadata.json")[\'operatingsystem_support\'][0]':
  message => loadjson("${get_module_path('concat')}/metadata.json")['operatingsystem_support'][0],
}
