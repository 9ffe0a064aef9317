# Sample calls of stdlib::validate_domain_name; each result is a notify message.
notify { 'call 1: stdlib::validate_domain_name(\'www.example.com\')':
  message => stdlib::validate_domain_name('www.example.com'),
}
notify { 'call 2: stdlib::validate_domain_name(\'localhost\', \'example.com.\', \'a-b.example.org\')':
  message => stdlib::validate_domain_name('localhost', 'example.com.', 'a-b.example.org'),
}
