notify { 'call 1: class': message => govuk_node_class() }
