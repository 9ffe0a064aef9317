# Sample calls of has_interface_with; each result is a notify message.
notify { 'call 1: inline_template(\'<%= scope.function_has_interface_with(["lo"]) %>\')':
  message => inline_template('<%= scope.function_has_interface_with(["lo"]) %>'),
}
notify { 'call 2: inline_template(\'<%= scope.function_has_interface_with(["ipaddress", "10.0.0.11"]) %>\')':
  message => inline_template('<%= scope.function_has_interface_with(["ipaddress", "10.0.0.11"]) %>'),
}
notify { 'call 3: inline_template(\'<%= scope.function_has_interface_with(["ipaddress", "10.9.9.9"]) %>\')':
  message => inline_template('<%= scope.function_has_interface_with(["ipaddress", "10.9.9.9"]) %>'),
}
