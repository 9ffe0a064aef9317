# Sample calls of stdlib::validate_email_address; each result is a notify message.
stdlib::validate_email_address('not an address')
