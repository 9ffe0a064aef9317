# Sample calls of validate_domain_name; each result is a notify message.
notify { 'call 1: validate_domain_name(\'www.example.com\')':
  message => validate_domain_name('www.example.com'),
}
notify { 'call 2: validate_domain_name(\'localhost\', \'example.com.\')':
  message => validate_domain_name('localhost', 'example.com.'),
}
