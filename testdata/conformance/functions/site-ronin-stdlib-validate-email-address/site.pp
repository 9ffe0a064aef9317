# Sample calls of validate_email_address; each result is a notify message.
notify { 'call 1: validate_email_address(\'alice@example.com\')':
  message => validate_email_address('alice@example.com'),
}
notify { 'call 2: validate_email_address(\'a.b+c@example.org\', \'root@localhost\')':
  message => validate_email_address('a.b+c@example.org', 'root@localhost'),
}
