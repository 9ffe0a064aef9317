# Sample calls of get_module_path; each result is a notify message.
notify { 'call 1: basename(get_module_path(\'stdlib\'))':
  message => basename(get_module_path('stdlib')),
}
notify { 'call 2: get_module_path(\'stdlib\') =~ /\\/stdlib\\z/':
  message => get_module_path('stdlib') =~ /\/stdlib\z/,
}
notify { 'call 3: basename(get_module_path(\'concat\'))':
  message => basename(get_module_path('concat')),
}
