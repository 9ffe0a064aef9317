# Sample calls of stdlib::validate_domain_name; each result is a notify message.
stdlib::validate_domain_name('-bad-.example')
