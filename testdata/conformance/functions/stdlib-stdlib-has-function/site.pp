# Sample calls of stdlib::has_function; each result is a notify message.
notify { 'call 1: stdlib::has_function(\'stdlib::merge\')':
  message => stdlib::has_function('stdlib::merge'),
}
notify { 'call 2: stdlib::has_function(\'no_such_function\')':
  message => stdlib::has_function('no_such_function'),
}
notify { 'call 3: stdlib::has_function(\'include\')':
  message => stdlib::has_function('include'),
}
notify { 'call 4: stdlib::has_function(\'validate_cmd\')':
  message => stdlib::has_function('validate_cmd'),
}
