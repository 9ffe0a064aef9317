# Sample calls of validate_legacy; each result is a notify message.
notify { 'call 1: validate_legacy(Integer, \'validate_integer\', 3)':
  message => validate_legacy(Integer, 'validate_integer', 3),
}
notify { 'call 2: validate_legacy(\'Optional[String]\', \'validate_re\', \'foo\', [\'^foo\'])':
  message => validate_legacy('Optional[String]', 'validate_re', 'foo', ['^foo']),
}
notify { 'call 3: validate_legacy(Stdlib::Absolutepath, \'validate_absolute_path\', \'/etc\')':
  message => validate_legacy(Stdlib::Absolutepath, 'validate_absolute_path', '/etc'),
}
notify { 'call 4: validate_legacy(Optional[String], \'validate_string\', undef)':
  message => validate_legacy(Optional[String], 'validate_string', undef),
}
