# Sample calls of stdlib::validate_email_address; each result is a notify message.
notify { 'call 1: stdlib::validate_email_address(\'alice@example.com\')':
  message => stdlib::validate_email_address('alice@example.com'),
}
notify { 'call 2: stdlib::validate_email_address(\'a.b+c@example.org\', \'root@localhost\')':
  message => stdlib::validate_email_address('a.b+c@example.org', 'root@localhost'),
}
