notify { 'unmatched quote': message => accounts_ssh_options_parser('command="/bin/true') }
