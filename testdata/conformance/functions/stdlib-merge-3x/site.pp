# Sample calls of merge; each result is a notify message.
notify { 'call 1: inline_template(\'<%= scope.function_merge([{"a" => 1}, {"b" => 2}]).inspect %>\')':
  message => inline_template('<%= scope.function_merge([{"a" => 1}, {"b" => 2}]).inspect %>'),
}
notify { 'call 2: inline_template(\'<%= scope.function_merge([{"a" => 1, "b" => 2}, {"b" => 3}, ""]).inspect %>\')':
  message => inline_template('<%= scope.function_merge([{"a" => 1, "b" => 2}, {"b" => 3}, ""]).inspect %>'),
}
notify { 'call 3: inline_template(\'<%= scope.function_merge([{}, {"x" => [1]}]).inspect %>\')':
  message => inline_template('<%= scope.function_merge([{}, {"x" => [1]}]).inspect %>'),
}
