notify { 'call 1: class': message => govuk_node_class() }
notify { 'call 2: trusted': message => $trusted['authenticated'] }
