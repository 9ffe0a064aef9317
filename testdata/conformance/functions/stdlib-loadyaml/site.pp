# Sample calls of loadyaml; each result is a notify message.
notify { 'call 1: loadyaml("${get_module_path(\'stdlib\')}/metadata.json")[\'name\']':
  message => loadyaml("${get_module_path('stdlib')}/metadata.json")['name'],
}
notify { 'call 2: loadyaml(\'/nonexistent/file.yaml\', {\'default\' => \'value\'})':
  message => loadyaml('/nonexistent/file.yaml', {'default' => 'value'}),
}
notify { 'call 3: loadyaml(\'/nonexistent/file.yaml\', \'x\')':
  message => loadyaml('/nonexistent/file.yaml', 'x'),
}
notify { 'call 4: loadyaml("${get_module_path(\'stdlib\')}/.sync.yml")':
  message => loadyaml("${get_module_path('stdlib')}/.sync.yml"),
}
