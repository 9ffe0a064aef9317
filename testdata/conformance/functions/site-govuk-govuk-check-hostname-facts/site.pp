govuk_check_hostname_facts()
notify { 'call 1: accepted': message => 'ok' }
